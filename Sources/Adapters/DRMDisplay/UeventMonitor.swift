import LinuxInterfaces

/// The kernel's uevents (raw netlink, no libudev): a non-blocking socket that the display
/// thread polls beside its ``Wakeup``. Owns the socket.
final class UeventMonitor {
    private let socket: DatagramSocket
    /// The socket, for `poll`.
    var fileDescriptor: Int32 { socket.rawValue }

    /// Opens the socket, bound to the kernel's uevent multicast group.
    init() throws(SystemCallFailure) {
        socket = try DatagramSocket.kernelUevents()
    }

    /// Reads every queued uevent without blocking.
    func readEvents() -> [Uevent] {
        var events: [Uevent] = []
        while let datagram = try? socket.receive(timeout: .zero) {
            if let event = Uevent(datagram: datagram) { events.append(event) }
        }
        return events
    }
}
