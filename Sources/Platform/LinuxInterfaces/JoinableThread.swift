import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A joinable POSIX thread (`pthread_t`) running a closure, for the loops that block in `poll`
/// (display hotplug, input devices, the photo folder): blocking there must not happen on
/// Swift's cooperative thread pool.
public final class JoinableThread: Sendable {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let thread: pthread_t
    private let joined = Mutex(false)

    /// Starts `body` on a new thread (`pthread_create`); throws the error number it returned.
    public init(_ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw ThreadStartError(code: result)
        }
        self.thread = thread
    }

    /// Starts `body` on a thread no one waits for (`pthread_detach`).
    public static func detach(_ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        let thread = try JoinableThread(body)
        pthread_detach(thread.thread)
        thread.joined.withLock { $0 = true }
    }

    /// Waits for the thread to finish (`pthread_join`). Only the first call waits; a call from
    /// the thread itself returns at once instead of deadlocking.
    public func join() {
        guard pthread_equal(pthread_self(), thread) == 0 else { return }
        let first = joined.withLock { joined in
            defer { joined = true }
            return !joined
        }
        if first { pthread_join(thread, nil) }
    }
}
