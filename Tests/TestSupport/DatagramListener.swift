#if canImport(Glibc)
    import Glibc
#endif

/// A real `AF_UNIX` datagram socket standing in for systemd's notification socket.
public final class DatagramListener {
    /// The socket.
    public let fd: Int32
    /// `$NOTIFY_SOCKET` for this socket: a path, or `@name` for an abstract one.
    public let notifySocket: String
    private let path: String?

    /// Binds a socket at a fresh path under /tmp, or at a fresh abstract name.
    public init(abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenerError.failed("socket", errno) }
        let unique = "babyalbum-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes: [UInt8]
        if abstract {
            path = nil
            notifySocket = "@" + unique
            bytes = [0] + Array(unique.utf8)
        } else {
            path = "/tmp/" + unique
            notifySocket = path!
            bytes = Array(path!.utf8)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw ListenerError.failed("bind", error)
        }
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    /// The next datagram already queued, or `nil` when none is (never blocks).
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// A call that set the socket up failed, with its `errno`.
    public enum ListenerError: Error { case failed(String, Int32) }
}
