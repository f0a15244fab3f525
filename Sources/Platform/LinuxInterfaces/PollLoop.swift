import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A thread that sleeps in `poll(2)` on its client's descriptors and a ``Wakeup`` of its own,
/// and calls the client when one is ready: the one loop of the display, the input devices, the
/// photo folder, the quiet hours and the mount table.
///
/// One error policy: a failed `poll` (other than `EINTR`) is logged once, retried after a
/// back-off that grows from 10 ms to 1 s, and its recovery is logged; the loop never ends by
/// itself. It ends when ``stop()`` is called or the client says ``PollNext/end``, and logs that.
public final class PollLoop: Sendable {
    private let shared: Shared
    private let thread: JoinableThread

    /// Starts `client` on a new thread (`pthread_create`); `name` prefixes its log messages.
    /// From here on only that thread touches the client.
    public init(name: String, logger: Logger, client: any PollLoopClient) throws(SystemCallFailure) {
        let shared = Shared(wakeup: try Wakeup())
        nonisolated(unsafe) let owned = client  // only the loop's thread uses it from here on
        let runner = Runner(name: name, logger: logger, shared: shared)
        do {
            thread = try JoinableThread { runner.run(owned) }
        } catch {
            throw SystemCallFailure(operation: "pthread_create", path: name, code: error.code)
        }
        self.shared = shared
    }

    /// Runs `work` on the loop's thread, before its client's next turn (never, once the loop
    /// has ended).
    public func post(_ work: @escaping @Sendable () -> Void) {
        shared.state.withLock { $0.posted.append(work) }
        shared.wakeup.signal()
    }

    /// Ends the loop and waits for it (its client's ``PollLoopClient/loopEnded()`` has run when
    /// this returns). Safe to call more than once, and from the loop's own thread (which does
    /// not wait for itself).
    public func stop() {
        requestStop()
        thread.join()
    }

    /// Ends the loop without waiting for it here: a helper thread joins it (for a caller that
    /// must not block, such as a stream's termination handler).
    public func stopWithoutWaiting() {
        requestStop()
        do {
            try JoinableThread.detach { self.thread.join() }
        } catch {
            // No thread for the join: the loop still ends on the wake-up, unjoined.
        }
    }

    /// Waits until the loop ends by its client's choice (``PollNext/end``).
    public func join() {
        thread.join()
    }

    private func requestStop() {
        shared.state.withLock { $0.stopping = true }
        shared.wakeup.signal()
    }
}

extension PollLoop {
    /// What the owner's threads and the loop's thread share.
    fileprivate final class Shared: Sendable {
        struct State {
            var stopping = false
            var posted: [@Sendable () -> Void] = []
        }

        let wakeup: Wakeup
        let state = Mutex(State())

        init(wakeup: Wakeup) { self.wakeup = wakeup }
    }

    /// The loop's thread body.
    fileprivate struct Runner: Sendable {
        let name: String
        let logger: Logger
        let shared: Shared

        func run(_ client: any PollLoopClient) {
            client.loopStarted()
            defer { client.loopEnded() }
            var failures = 0
            while true {
                let wait = client.nextWait()
                var fds = [pollfd(fd: shared.wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0)]
                fds += wait.descriptors.map { pollfd(fd: $0.descriptor, events: $0.events.rawValue, revents: 0) }
                guard poll(&fds, nfds_t(fds.count), wait.milliseconds) >= 0 else {
                    let code = errno
                    if code != EINTR { backOff(after: &failures, code: code) }
                    continue
                }
                if failures > 0 { logger.notice("\(name): poll works again after \(failures) failures") }
                failures = 0
                if fds[0].revents != 0 {
                    shared.wakeup.drain()
                    let (stopping, posted) = shared.state.withLock { state in
                        defer { state.posted = [] }
                        return (state.stopping, state.posted)
                    }
                    if stopping {
                        logger.debug("\(name): stopped")
                        return
                    }
                    for work in posted { work() }
                }
                guard client.handle(fds.dropFirst().map { PollEvents(rawValue: $0.revents) }) == .wait else {
                    logger.debug("\(name): ended")
                    return
                }
            }
        }

        /// Logs the first failure of a run, then sleeps 10 ms, doubling up to 1 s.
        private func backOff(after failures: inout Int, code: Int32) {
            if failures == 0 {
                logger.error("\(name): poll failed: \(errnoDescription(code)); trying again")
            }
            failures += 1
            usleep(UInt32(min(10_000 << min(failures - 1, 7), 1_000_000)))
        }
    }
}
