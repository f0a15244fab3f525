/// Where the card's Wi-Fi stands, as one clear line for the frame's log and `babyalbum doctor`
/// (never the password: wpa_supplicant's events do not carry it, and nothing here reads it).
public enum WiFiState: Equatable, Sendable {
    /// Joined the network.
    case connected(network: String)
    /// The network answered and refused the password (wpa_supplicant's `reason=WRONG_KEY`).
    case wrongPassword(network: String)
    /// No network of that name is in range (`CTRL-EVENT-NETWORK-NOT-FOUND`).
    case networkNotFound(network: String)

    /// The network's name (`wifi-name`).
    public var network: String {
        switch self {
        case .connected(let network), .wrongPassword(let network), .networkNotFound(let network): network
        }
    }

    /// Whether the frame cannot reach the network this way.
    public var isProblem: Bool {
        if case .connected = self { return false }
        return true
    }

    /// The one line, with what to do about it.
    public var line: String {
        switch self {
        case .connected(let network): "Wi-Fi: connected to '\(network)'"
        case .wrongPassword(let network):
            "Wi-Fi: wrong password for '\(network)': check wifi-password in babyalbum.txt"
        case .networkNotFound(let network):
            "Wi-Fi: no network named '\(network)' in range: check wifi-name in babyalbum.txt and the router"
        }
    }

    /// The state file's text: the kind, then the network's name, one a line.
    public var fileText: String { "\(kind)\n\(network)\n" }

    private var kind: String {
        switch self {
        case .connected: "connected"
        case .wrongPassword: "wrong-password"
        case .networkNotFound: "network-not-found"
        }
    }

    /// Reads ``fileText``; `nil` for anything else.
    public init?(fileText: String) {
        let lines = fileText.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 2 else { return nil }
        let network = lines[1].hasSuffix("\n") ? String(lines[1].dropLast()) : lines[1]
        switch lines[0] {
        case "connected": self = .connected(network: network)
        case "wrong-password": self = .wrongPassword(network: network)
        case "network-not-found": self = .networkNotFound(network: network)
        default: return nil
        }
    }

    /// The state an event of wpa_supplicant's control interface (`<3>CTRL-EVENT-…`) announces
    /// for `network`; `nil` for the events that say nothing about it.
    public init?(event: String, network: String) {
        let message = event.hasPrefix("<") ? String(event.drop(while: { $0 != ">" }).dropFirst()) : event
        if message.hasPrefix("CTRL-EVENT-CONNECTED") {
            self = .connected(network: network)
        } else if message.hasPrefix("CTRL-EVENT-SSID-TEMP-DISABLED"), message.contains("reason=WRONG_KEY") {
            self = .wrongPassword(network: network)
        } else if message.hasPrefix("CTRL-EVENT-NETWORK-NOT-FOUND") {
            self = .networkNotFound(network: network)
        } else {
            return nil
        }
    }

    /// The network's name from `GET_NETWORK 0 ssid`'s answer: quoted text, or hex digits.
    public static func networkName(fromReply reply: String) -> String {
        let text = reply.trimmingSuffix("\n")
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
        return text
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
