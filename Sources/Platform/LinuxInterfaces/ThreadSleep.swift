#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Blocks the calling thread for `duration` (`nanosleep`, resumed after a signal), for the
/// short waits of one-shot boot commands that run no tasks.
public func sleepThread(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
}
