import CLinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A datagram socket, owned: `AF_UNIX` (systemd's notification socket, wpa_supplicant's control
/// interface) or netlink (the kernel's uevents), the kernel's and daemons' datagram protocols.
/// Closes its descriptor, and removes the file it bound, when it goes.
public final class DatagramSocket {
    private let descriptor: FileDescriptor
    /// The socket file this socket bound, removed when it goes.
    private var boundPath: String?
    /// What the socket talks to, for errors.
    public let name: String

    /// The descriptor, for a ``PollLoop``. Valid while the socket lives.
    public var rawValue: Int32 { descriptor.rawValue }

    private init(descriptor: consuming FileDescriptor, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    deinit {
        if let boundPath { unlink(boundPath) }
    }

    /// An `AF_UNIX` datagram socket, bound to the file `local` when given (a stale socket file
    /// there is replaced) and connected to `remote` when given.
    public convenience init(unixBoundTo local: String? = nil, connectedTo remote: UnixSocketAddress? = nil)
        throws(SystemCallFailure)
    {
        let name = remote?.description ?? local ?? "AF_UNIX socket"
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let raw = try valueOrErrno("socket", path: name) { socket(AF_UNIX, type, 0) }
        self.init(descriptor: FileDescriptor(adopting: raw, path: name), name: name)
        if let local {
            unlink(local)
            guard try UnixSocketAddress.path(local).withSocketAddress({ bind(raw, $0, $1) }) == 0 else {
                throw SystemCallFailure(operation: "bind", path: local, code: errno)
            }
            boundPath = local
        }
        if let remote {
            guard try remote.withSocketAddress({ connect(raw, $0, $1) }) == 0 else {
                throw SystemCallFailure(operation: "connect", path: name, code: errno)
            }
        }
    }

    /// The kernel's uevents: a non-blocking netlink socket bound to `NETLINK_KOBJECT_UEVENT`'s
    /// multicast group.
    public static func kernelUevents() throws(SystemCallFailure) -> DatagramSocket {
        let raw = try valueOrErrno("socket(NETLINK_KOBJECT_UEVENT)", path: "uevents") {
            CLinuxInterfaces_open_uevent_socket()
        }
        return DatagramSocket(descriptor: FileDescriptor(adopting: raw, path: "uevents"), name: "uevents")
    }

    /// Sends `bytes` as one datagram to the connected peer (`MSG_NOSIGNAL`).
    public func send(_ bytes: [UInt8]) throws(SystemCallFailure) {
        let raw = rawValue
        _ = try valueOrErrno("send", path: name) {
            bytes.withUnsafeBytes { Glibc.send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Sends `bytes` as one datagram to `address` (`sendto`, `MSG_NOSIGNAL`).
    public func send(_ bytes: [UInt8], to address: UnixSocketAddress) throws(SystemCallFailure) {
        let raw = rawValue
        while true {
            let sent = try address.withSocketAddress { socketAddress, length in
                bytes.withUnsafeBytes {
                    sendto(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
            if sent >= 0 { return }
            guard errno == EINTR else {
                throw SystemCallFailure(operation: "sendto", path: address.description, code: errno)
            }
        }
    }

    /// The next datagram, at most `capacity` bytes of it; `nil` when none came within `timeout`
    /// (`.zero`: only one already queued; `nil`: wait for one).
    public func receive(capacity: Int = 8192, timeout: Duration?) throws(SystemCallFailure) -> [UInt8]? {
        // `.zero` needs no poll: `MSG_DONTWAIT` alone says whether one is queued. `nil` blocks in
        // `recv` itself (on a blocking socket).
        if let timeout, timeout > .zero, try !waitUntilReadable(rawValue, timeout: timeout) { return nil }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let raw = rawValue
        let count = recv(raw, &buffer, buffer.count, timeout == nil ? 0 : Int32(MSG_DONTWAIT))
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
            throw SystemCallFailure(operation: "recv", path: name, code: errno)
        }
        return Array(buffer[..<count])
    }
}
