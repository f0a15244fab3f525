import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A client of wpa_supplicant's control interface (`ctrl_interface=/run/wpa_supplicant`): one
/// `AF_UNIX` datagram socket bound to `local`, connected to the interface's socket (for example
/// `/run/wpa_supplicant/wlan0`). Requests get one answer; after `ATTACH` the events come as
/// datagrams too (`<3>CTRL-EVENT-…`).
public final class SupplicantControl {
    private let socket: FileDescriptor
    private let local: String
    /// The interface's socket.
    public let remote: String

    /// Connects to `remote` from a socket bound at `local` (replaced if it is there).
    public init(remote: String, local: String) throws(SystemCallFailure) {
        self.remote = remote
        self.local = local
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        socket = FileDescriptor(
            adopting: try valueOrErrno("socket", path: remote) { Glibc.socket(AF_UNIX, type, 0) }, path: remote)
        unlink(local)
        try Self.withAddress(local) { address, length throws(SystemCallFailure) in
            _ = try valueOrErrno("bind", path: local) { bind(socket.rawValue, address, length) }
        }
        try Self.withAddress(remote) { address, length throws(SystemCallFailure) in
            _ = try valueOrErrno("connect", path: remote) { connect(socket.rawValue, address, length) }
        }
    }

    deinit { unlink(local) }

    /// Sends `command` and returns its answer, skipping events that arrive first; throws
    /// `ETIMEDOUT` when none comes within `timeout` milliseconds.
    public func request(_ command: String, timeout: Int32 = 5000) throws(SystemCallFailure) -> String {
        let bytes = Array(command.utf8)
        _ = try valueOrErrno("send", path: remote) { send(socket.rawValue, bytes, bytes.count, Int32(MSG_NOSIGNAL)) }
        while true {
            guard let reply = try receive(timeout: timeout) else {
                throw SystemCallFailure(
                    operation: "no answer to \(command.split(separator: " ")[0])", path: remote, code: ETIMEDOUT)
            }
            if !reply.hasPrefix("<") { return reply }
        }
    }

    /// The next datagram (an event after `ATTACH`, or an answer); `nil` after `timeout` milliseconds.
    public func receive(timeout: Int32) throws(SystemCallFailure) -> String? {
        var poller = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
        let ready = try valueOrErrno("poll", path: remote) { poll(&poller, 1, timeout) }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = try valueOrErrno("recv", path: remote) { recv(socket.rawValue, &buffer, buffer.count, 0) }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallFailure) -> Void
    ) throws(SystemCallFailure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw SystemCallFailure(operation: "socket path", path: path, code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
            sunPath[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        try withUnsafePointer(to: &address) { pointer throws(SystemCallFailure) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemCallFailure) in
                try body(address, length)
            }
        }
    }
}
