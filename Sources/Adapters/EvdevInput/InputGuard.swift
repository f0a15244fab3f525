import AlbumDomain
import Logging
import Synchronization

/// Grabs every input device and swallows its events; only the exit button gets through, as
/// one ``ExitRequest``.
///
/// Every `/dev/input/event*` device is grabbed at start (`EVIOCGRAB` through libevdev), devices
/// plugged in later within a second (inotify on `/dev/input`), so neither the console, nor a
/// virtual-terminal switch, nor Ctrl+Alt+Del, nor SysRq sees any key. One dedicated thread sleeps in
/// `poll(2)`; the hold timing runs in an ``ExitButtonMonitor`` on the continuous clock.
public final class InputGuard: Sendable {
    /// Exit requests from the hardware button: at most one, then the stream ends (also on ``stop()``).
    public let exitRequests: AsyncStream<ExitRequest>

    private let loop: InputLoop
    private let monitor: ExitButtonMonitor<ContinuousClock>
    private let monitorTask: Task<Void, Never>
    private let requests: AsyncStream<ExitRequest>.Continuation

    private init(
        loop: InputLoop, monitor: ExitButtonMonitor<ContinuousClock>, logger: Logger,
        requests: (AsyncStream<ExitRequest>, AsyncStream<ExitRequest>.Continuation)
    ) {
        self.loop = loop
        self.monitor = monitor
        (exitRequests, self.requests) = requests
        let continuation = requests.1
        monitorTask = Task {
            if let request = await monitor.run() {
                logger.debug("input: exit button \(request.key) held on \(request.device)")
                continuation.yield(request)
            }
            continuation.finish()
        }
    }

    /// Grabs every input device now and those that appear later.
    ///
    /// Devices that cannot be opened (permission: the `input` group) or grabbed (another program
    /// holds them) are logged and skipped. The start logs how many devices were grabbed and which carry
    /// the exit button, and warns if none does.
    /// - Throws: ``InputError`` if `/dev/input` cannot be watched or listed, or the thread not started.
    public static func start(policy: ExitButtonPolicy, logger: Logger) throws -> InputGuard {
        try start(policy: policy, directory: "/dev/input", logger: logger)
    }

    /// ``start(policy:logger:)`` on another device directory.
    static func start(policy: ExitButtonPolicy, directory: String, logger: Logger) throws(InputError) -> InputGuard {
        let monitor = ExitButtonMonitor(policy: policy, clock: ContinuousClock())
        let loop = try InputLoop(directory: directory, policy: policy, logger: logger) { monitor.send($0) }
        try loop.start()
        return InputGuard(
            loop: loop, monitor: monitor, logger: logger,
            requests: AsyncStream.makeStream(of: ExitRequest.self, bufferingPolicy: .bufferingNewest(1)))
    }

    /// Releases every grab and closes every device, then ends ``exitRequests``. Safe to call more
    /// than once, from any thread.
    public func stop() {
        loop.stop()
        monitor.finish()
        monitorTask.cancel()
        requests.finish()
    }

    deinit {
        stop()
    }
}
