#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The events of one descriptor in `poll(2)` (`short events` / `short revents` of `struct pollfd`).
public struct PollEvents: OptionSet, Sendable {
    public var rawValue: Int16

    /// Creates events from their bits.
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// `POLLIN`: there is data to read.
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// `POLLPRI`: an exceptional condition (`/proc/self/mountinfo` changed).
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    /// `POLLERR`: an error on the descriptor (always reported).
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP`: the other end hung up, or the device went away (always reported).
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// `POLLNVAL`: the descriptor is not open (always reported).
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}
