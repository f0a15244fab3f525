import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The address of systemd's notification socket, as given in `$NOTIFY_SOCKET`.
///
/// The corresponding C type is `struct sockaddr_un` (`AF_UNIX`).
public enum NotifySocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// A socket in the file system, e.g. `/run/systemd/notify`.
    case path(String)
    /// A socket in the abstract namespace; `$NOTIFY_SOCKET` writes it with a leading `@`, the
    /// address starts with a NUL byte instead. The name here excludes the `@`.
    case abstract(String)

    /// Parses `$NOTIFY_SOCKET`: an absolute path or `@name`. Anything else (empty, relative, a
    /// `vsock:` address, longer than `sun_path`) gives `nil`.
    public init?(_ text: String) {
        if text.hasPrefix("/") {
            self = .path(text)
        } else if text.hasPrefix("@"), text.utf8.count > 1 {
            self = .abstract(String(text.dropFirst()))
        } else {
            return nil
        }
        guard sunPathBytes.count <= Self.sunPathCapacity else { return nil }
    }

    public var description: String {
        switch self {
        case .path(let path): return path
        case .abstract(let name): return "@" + name
        }
    }

    /// `sun_path`'s size: 108 on Linux.
    static let sunPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The bytes of `sun_path` that count: the path, or NUL followed by the abstract name. Neither
    /// needs a terminator: the address length delimits them.
    var sunPathBytes: [UInt8] {
        switch self {
        case .path(let path): return Array(path.utf8)
        case .abstract(let name): return [0] + Array(name.utf8)
        }
    }

    /// Sends `message` as one datagram from a fresh `SOCK_DGRAM` socket, like `sd_notify(3)`.
    func sendDatagram(_ message: String) throws(SystemdNotifyError) {
        let socket = FileDescriptor(
            adopting: try notifyCall("socket") { Glibc.socket(AF_UNIX, Self.datagramType, 0) }, path: "$NOTIFY_SOCKET")
        let fd = socket.rawValue

        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = sunPathBytes
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = socklen_t(pathOffset + bytes.count)
        let payload = Array(message.utf8)

        _ = try notifyCall("sendto") {
            withUnsafePointer(to: &address) { addressPointer in
                addressPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    payload.withUnsafeBytes { buffer in
                        sendto(fd, buffer.baseAddress, buffer.count, Self.sendFlags, socketAddress, length)
                    }
                }
            }
        }
    }

    private static let datagramType = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)

    /// ``LinuxInterfaces/valueOrErrno(_:path:retryOnInterrupt:negativeIsFailure:_:)`` on this
    /// socket, failing with a ``SystemdNotifyError``.
    private func notifyCall<Result: FixedWidthInteger>(
        _ operation: String, _ body: () -> Result
    ) throws(SystemdNotifyError) -> Result {
        do {
            return try valueOrErrno(operation, path: description, body)
        } catch {
            throw SystemdNotifyError(error)
        }
    }
}
