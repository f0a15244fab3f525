#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Waits until `descriptor` is readable, hung up or in error (`poll(2)` for `POLLIN`), at most
/// `timeout` (rounded up to milliseconds): the one wait with a deadline of the adapters that
/// need no ``PollLoop`` (a page flip's event, a worker's ready message).
///
/// - Returns: whether it is ready; `false` after the timeout or when a signal interrupted the
///   wait (`EINTR`: the caller, who holds the deadline, waits again for what is left).
/// - Throws: any other failure of `poll`.
public func waitUntilReadable(_ descriptor: Int32, timeout: Duration) throws(SystemCallFailure) -> Bool {
    var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&wanted, 1, timeout.roundedUpMilliseconds)
    if ready < 0 {
        guard errno == EINTR else { throw SystemCallFailure(operation: "poll", path: "fd \(descriptor)", code: errno) }
        return false
    }
    return ready > 0
}
