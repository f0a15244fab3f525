#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension FileDescriptor {
    /// A TCP connection to the IPv4 address `host` (dotted, `127.0.0.1`) at `port` (`socket`,
    /// `inet_pton`, `connect`), close-on-exec, whose sends and receives give up after `timeout`
    /// (`SO_SNDTIMEO`, `SO_RCVTIMEO`, in whole milliseconds rounded up).
    public static func connectTCP(
        host: String, port: UInt16, timeout: Duration
    ) throws(SystemCallFailure) -> FileDescriptor {
        let name = "\(host):\(port)"
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SystemCallFailure(operation: "inet_pton", path: name, code: EINVAL)
        }
        let connection = FileDescriptor(
            adopting: try valueOrErrno("socket", path: name) {
                socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }, path: name)
        let milliseconds = timeout.roundedUpMilliseconds
        var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
        let descriptor = connection.rawValue
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            try valueOrErrno("setsockopt", path: name) {
                setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
            }
        }
        try valueOrErrno("connect", path: name, retryOnInterrupt: false) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return connection
    }

    /// `send(2)` of `bytes` on this socket, without SIGPIPE (`MSG_NOSIGNAL`): the bytes sent.
    public func send(_ bytes: [UInt8]) throws(SystemCallFailure) -> Int {
        let descriptor = rawValue
        return try valueOrErrno("send", path: path) {
            bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}
