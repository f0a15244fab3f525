import CLinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The address of an `AF_UNIX` socket: a file in the file system, or a name in the abstract
/// namespace (written `@name`; its `sun_path` starts with a NUL byte).
public enum UnixSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// A socket in the file system, e.g. `/run/wpa_supplicant/wlan0`.
    case path(String)
    /// A socket in the abstract namespace, named without its `@`.
    case abstract(String)

    /// `sun_path`'s size: 108 on Linux.
    public static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The bytes of `sun_path` that count: the path, or NUL and the abstract name (the address
    /// length delimits them; a path also gets a terminating NUL when there is room).
    public var sunPathBytes: [UInt8] {
        switch self {
        case .path(let path): Array(path.utf8)
        case .abstract(let name): [0] + Array(name.utf8)
        }
    }

    /// Whether the address fits in `sun_path`.
    public var fits: Bool { sunPathBytes.count <= Self.capacity }

    public var description: String {
        switch self {
        case .path(let path): path
        case .abstract(let name): "@" + name
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length; `ENAMETOOLONG` when it
    /// does not fit.
    func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SystemCallFailure) -> Result {
        let bytes = sunPathBytes
        guard fits else { throw SystemCallFailure(operation: "socket address", path: description, code: ENAMETOOLONG) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
            if bytes.count < sunPath.count { sunPath[bytes.count] = 0 }
        }
        let terminator = (bytes.first != 0 && bytes.count < Self.capacity) ? 1 : 0
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + terminator)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
