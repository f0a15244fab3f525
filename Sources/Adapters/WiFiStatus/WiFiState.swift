import LinuxInterfaces

/// Where the card's Wi-Fi stands, as one clear line for the frame's log and `babyalbum doctor`
/// (never the password: wpa_supplicant's events do not carry it, and nothing here reads it).
public enum WiFiState: Equatable, Sendable {
    /// Joined the network.
    case connected(network: String)
    /// The network answered and refused the password: WPA2's handshake failed (wpa_supplicant's
    /// `reason=WRONG_KEY`) or WPA3's SAE confirm was refused (``isRefusedSAEConfirm(_:)``).
    case wrongPassword(network: String)
    /// No network of that name is in range (`CTRL-EVENT-NETWORK-NOT-FOUND`).
    case networkNotFound(network: String)
    /// `babyalbum network-setup` refused the settings file's Wi-Fi lines (`reason` says which
    /// line and what to write), so the card joins no network.
    case notSetUp(reason: String)

    /// The network's name (`wifi-name`).
    public var network: String {
        switch self {
        case .connected(let network), .wrongPassword(let network), .networkNotFound(let network): network
        case .notSetUp: ""
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
        case .notSetUp(let reason): "Wi-Fi: not set up: \(reason)"
        }
    }

    /// The state file's text: the kind, then the network's name (or the reason), one a line.
    public var fileText: String {
        if case .notSetUp(let reason) = self { return "\(kind)\n\(reason.escapingControlCharacters)\n" }
        return "\(kind)\n\(network)\n"
    }

    private var kind: String {
        switch self {
        case .connected: "connected"
        case .wrongPassword: "wrong-password"
        case .networkNotFound: "network-not-found"
        case .notSetUp: "not-set-up"
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
        case "not-set-up": self = .notSetUp(reason: network)
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
        } else if Self.isRefusedSAEConfirm(message) {
            self = .wrongPassword(network: network)
        } else if message.hasPrefix("CTRL-EVENT-NETWORK-NOT-FOUND") {
            self = .networkNotFound(network: network)
        } else {
            return nil
        }
    }

    /// Whether `message` is WPA3's answer to a wrong password: the access point refused the SAE
    /// confirm, the second message of SAE's authentication (`CTRL-EVENT-AUTH-REJECT <bssid>
    /// auth_type=3 auth_transaction=2 status_code=1`; hostapd answers a confirm that does not
    /// match with status 1, some access points with 15, "challenge failure"). WPA3 has no
    /// handshake after it, so `reason=WRONG_KEY` never comes; a refused commit (the first
    /// message) is something else (a group or token the network does not take).
    static func isRefusedSAEConfirm(_ message: String) -> Bool {
        guard message.hasPrefix("CTRL-EVENT-AUTH-REJECT ") else { return false }
        var fields: [Substring: Substring] = [:]
        for word in message.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[word[..<equals]] = word[word.index(after: equals)...]
        }
        let saeAuthentication = "3"
        let confirm = "2"
        let refusals: Set<Substring> = ["1", "15"]
        return fields["auth_type"] == saeAuthentication[...] && fields["auth_transaction"] == confirm[...]
            && fields["status_code"].map(refusals.contains) == true
    }

    /// The network's name from `GET_NETWORK 0 ssid`'s answer: quoted text, or hex digits, which
    /// wpa_supplicant gives for a name that is not printable ASCII (`Wohnung Müller`, an emoji):
    /// those are decoded back to the name as UTF-8. Control characters are escaped.
    public static func networkName(fromReply reply: String) -> String {
        let text = reply.trimmingSuffix("\n")
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            return String(text.dropFirst().dropLast()).escapingControlCharacters
        }
        if let bytes = hexBytes(text), let name = String(validating: bytes, as: UTF8.self) {
            return name.escapingControlCharacters
        }
        return text.escapingControlCharacters
    }

    /// The bytes of an even number of hex digits; `nil` for anything else.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
