import LinuxInterfaces

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
        guard unixAddress.fits else { return nil }
    }

    public var description: String {
        switch self {
        case .path(let path): return path
        case .abstract(let name): return "@" + name
        }
    }

    /// The address as LinuxInterfaces' socket address.
    var unixAddress: UnixSocketAddress {
        switch self {
        case .path(let path): .path(path)
        case .abstract(let name): .abstract(name)
        }
    }

    /// Sends `message` as one datagram from a fresh `SOCK_DGRAM` socket, like `sd_notify(3)`.
    func sendDatagram(_ message: String) throws(SystemdNotifyError) {
        do throws(SystemCallFailure) {
            try DatagramSocket().send(Array(message.utf8), to: unixAddress)
        } catch {
            throw SystemdNotifyError(error)
        }
    }
}
