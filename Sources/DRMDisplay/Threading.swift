#if canImport(Glibc)
    import Glibc
#endif

/// A `pthread_mutex_t` that owns its storage.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A joinable POSIX thread running a closure (the hotplug listener blocks in `poll`, which must
/// not happen on Swift's cooperative thread pool).
final class BackgroundThread: @unchecked Sendable {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemCallError(call: "pthread_create", errno: result)
        }
    }

    /// Waits for the thread to finish (once).
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}
