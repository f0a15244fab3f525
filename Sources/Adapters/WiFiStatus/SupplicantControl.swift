import LinuxInterfaces

/// A client of wpa_supplicant's control interface (`ctrl_interface=/run/wpa_supplicant`): one
/// `AF_UNIX` datagram socket bound to `local`, connected to the interface's socket (for example
/// `/run/wpa_supplicant/wlan0`). Requests get one answer; after `ATTACH` the events come as
/// datagrams too (`<3>CTRL-EVENT-…`).
public final class SupplicantControl {
    private let socket: DatagramSocket
    /// The interface's socket.
    public let remote: String

    /// Connects to `remote` from a socket bound at `local` (replaced if it is there; removed
    /// when this control goes).
    public init(remote: String, local: String) throws(SystemCallFailure) {
        self.remote = remote
        socket = try DatagramSocket(unixBoundTo: local, connectedTo: .path(remote))
    }

    /// Sends `command` and returns its answer, skipping events that arrive first; throws
    /// `ETIMEDOUT` when none comes within `timeout` milliseconds.
    public func request(_ command: String, timeout: Int32 = 5000) throws(SystemCallFailure) -> String {
        try socket.send(Array(command.utf8))
        while true {
            guard let reply = try receive(timeout: timeout) else {
                throw .timedOut("no answer to \(command.split(separator: " ")[0])", path: remote)
            }
            if !reply.hasPrefix("<") { return reply }
        }
    }

    /// The next datagram (an event after `ATTACH`, or an answer); `nil` after `timeout` milliseconds.
    public func receive(timeout: Int32) throws(SystemCallFailure) -> String? {
        guard let datagram = try socket.receive(capacity: 4096, timeout: .milliseconds(timeout)) else { return nil }
        return String(decoding: datagram, as: UTF8.self)
    }
}
