import CDisplayShims

#if canImport(Glibc)
    import Glibc
#endif

/// One kernel uevent: `ACTION`, `DEVPATH`, `SUBSYSTEM`, `DEVNAME`, `HOTPLUG`... as sent on
/// the `NETLINK_KOBJECT_UEVENT` socket (`"action@devpath\0KEY=VALUE\0..."`).
public struct Uevent: Equatable, Sendable {
    /// The `KEY=VALUE` pairs.
    public var properties: [String: String]

    /// Parses one datagram; `nil` for messages that are not kernel uevents (e.g. udev's).
    public init?(datagram: [UInt8]) {
        let fields = datagram.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, header.contains("@"), !header.hasPrefix("libudev") else { return nil }
        var properties: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        self.properties = properties
    }

    /// Whether this is a DRM change event for the card named like `card0`.
    public func isDisplayChange(card: String) -> Bool {
        properties["SUBSYSTEM"] == "drm" && properties["ACTION"] == "change"
            && (properties["DEVNAME"] == "dri/\(card)" || properties["DEVPATH"]?.hasSuffix("/\(card)") == true)
    }
}

/// A kernel uevent listener (raw netlink, no libudev) with a wake-up pipe so that another
/// thread can stop ``waitForEvents()``.
final class UeventMonitor: @unchecked Sendable {
    private let socket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws(SystemCallError) {
        socket = try valueOrErrno("socket(NETLINK_KOBJECT_UEVENT)") { CDisplayShims_open_uevent_socket() }
        var fds: [Int32] = [0, 0]
        if CDisplayShims_wake_pipe(&fds) < 0 {
            let code = errno
            Glibc.close(socket)
            throw SystemCallError(call: "pipe2", errno: code)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        Glibc.close(socket)
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    /// Blocks until uevents arrive (returns them) or ``wake()`` was called (returns `nil`).
    func waitForEvents() -> [Uevent]? {
        while true {
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if fds[1].revents != 0 { return nil }
            var events: [Uevent] = []
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                if let event = Uevent(datagram: Array(buffer[0..<count])) { events.append(event) }
            }
            if !events.isEmpty { return events }
        }
    }

    /// Makes ``waitForEvents()`` return `nil`.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
