import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process's one watch of `/proc/self/mountinfo`, which the kernel marks with `POLLPRI` on
/// every mount and unmount in the namespace (inotify does not see a mount over an existing
/// folder). Its ``PollLoop`` starts with the first subscriber and then lives as long as the
/// process; each subscriber's handler runs on that loop's thread after every change.
public enum MountTableWatch {
    /// The file watched.
    public static let path = "/proc/self/mountinfo"

    /// A subscriber's registration; ``cancel()`` ends it.
    public struct Subscription: Sendable {
        fileprivate let id: Int

        /// Stops calling the handler: once this returns, it is not running and will not run
        /// again (a call under way finishes first, unless this is called from the handler).
        /// Without `waiting`, a call under way may still finish after this returns (for a caller
        /// that must not block, such as a stream's termination handler).
        public func cancel(waiting: Bool = true) {
            let onWatchThread = MountTableWatch.shared.withLock { state in
                state.handlers[id] = nil
                return state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            }
            if waiting, !onWatchThread { MountTableWatch.calling.withLock { _ in } }
        }
    }

    /// Calls `handler` on the watch's thread after each change of the mount table, and once at
    /// once when `initialCall` is set. Starts the watch if this is the first subscriber
    /// (`open` of ``path`` and a thread; their failure is thrown).
    public static func subscribe(
        logger: Logger, initialCall: Bool = false, _ handler: @escaping @Sendable () -> Void
    ) throws(SystemCallFailure) -> Subscription {
        let (id, loop) = try shared.withLock { (state) throws(SystemCallFailure) -> (Int, PollLoop) in
            let loop: PollLoop
            if let running = state.loop {
                loop = running
            } else {
                loop = try PollLoop(name: "mount table", logger: logger, client: try Client())
                state.loop = loop
            }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return (state.nextID, loop)
        }
        if initialCall { loop.post { callHandlers(only: id) } }
        return Subscription(id: id)
    }

    fileprivate struct State {
        var loop: PollLoop?
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
        var thread: pthread_t?
    }

    fileprivate static let shared = Mutex(State())
    /// Held while handlers run, so that ``Subscription/cancel()`` can wait for them.
    fileprivate static let calling = Mutex(())

    /// Calls every handler subscribed now (or only `id`'s), on the watch's thread.
    fileprivate static func callHandlers(only id: Int? = nil) {
        calling.withLock { _ in
            let handlers = shared.withLock { state in
                id.map { state.handlers[$0].map { [$0] } ?? [] } ?? Array(state.handlers.values)
            }
            for handler in handlers { handler() }
        }
    }

    /// The loop's client: owns the descriptor.
    private final class Client: PollLoopClient {
        private let file: FileDescriptor

        init() throws(SystemCallFailure) { file = try FileDescriptor(opening: MountTableWatch.path) }

        func nextWait() -> PollWait {
            PollWait([(file.rawValue, .priority)])
        }

        func loopStarted() {
            MountTableWatch.shared.withLock { $0.thread = pthread_self() }
        }

        func handle(_ ready: [PollEvents]) -> PollNext {
            if !ready[0].isEmpty { MountTableWatch.callHandlers() }
            return .wait
        }
    }
}
