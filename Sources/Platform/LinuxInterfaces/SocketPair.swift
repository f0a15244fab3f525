#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Two connected `AF_UNIX` sockets (`socketpair(2)`, close-on-exec): this process's end and
/// the one a child gets. Each end closes itself.
public struct SocketPair: ~Copyable {
    /// This process's end.
    public var mine: FileDescriptor
    /// The child's end: handed to it at spawn, then closed here.
    public var theirs: FileDescriptor

    /// A pair of `SOCK_SEQPACKET` sockets (messages with their boundaries, in order), named
    /// `name` in errors.
    public init(sequencedPacketsNamed name: String) throws(SystemCallFailure) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        _ = try valueOrErrno("socketpair", path: name) { socketpair(AF_UNIX, type, 0, &ends) }
        mine = FileDescriptor(adopting: ends[0], path: name)
        theirs = FileDescriptor(adopting: ends[1], path: "\(name) (the other end)")
    }
}
