/// `wifi-name`, `wifi-password` and `wifi-country`: the home Wi-Fi a card joins (WPA2 or WPA3
/// personal with a password, open without one; hidden networks too), as wpa_supplicant's
/// configuration.
public struct WiFiNetwork: Sendable, Equatable {
    /// The network's name (SSID), 1 to 32 bytes.
    public let name: String
    /// The passphrase (8 to 63 characters, or 64 hex digits); `nil` for an open network.
    public let password: String?
    /// The regulatory domain, two capital letters (`DE`).
    public let country: String

    /// Checks the three settings together; throws a one-line reason that never quotes the password.
    /// `nil` without a name (a password alone is ignored).
    public init?(name: String?, password: String?, country: String?) throws(SettingValueError) {
        guard let name, !name.isEmpty else { return nil }
        try Self.check(name: name, password: password, country: country)
        guard let country else { throw SettingValueError("wifi-name needs wifi-country (e.g. DE or GB)") }
        self.name = name
        self.password = password
        self.country = country
    }

    /// Checks each setting that is given on its own terms (the file accepts them one line at a time).
    public static func check(name: String?, password: String?, country: String?) throws(SettingValueError) {
        if let name, name.isEmpty || name.utf8.count > 32 || name.contains(where: { $0.isNewline || $0 == "\"" }) {
            throw SettingValueError("wifi-name must be 1 to 32 bytes, without quotes or line breaks")
        }
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            throw SettingValueError("wifi-country must be the country's two capital letters, e.g. DE or GB")
        }
        if let password, !isPassphrase(password) {
            throw SettingValueError("wifi-password must be 8 to 63 characters (or 64 hex digits), without quotes")
        }
    }

    static func isPassphrase(_ text: String) -> Bool {
        if text.count == 64, text.allSatisfy(\.isHexDigit) { return true }
        return (8...63).contains(text.count) && text.allSatisfy { $0.isASCII && !$0.isNewline && $0 != "\"" }
    }

    /// wpa_supplicant's configuration (to be written with mode 0600: it holds the password).
    public var supplicantConfiguration: String {
        var lines = [
            "# Written at boot by babyalbum network-setup from the settings file's wifi-* settings.",
            "ctrl_interface=/run/wpa_supplicant", "country=\(country)", "network={",
            "    ssid=\"\(name)\"", "    scan_ssid=1",
        ]
        if let password {
            let psk = password.count == 64 ? password : "\"\(password)\""
            lines += ["    key_mgmt=WPA-PSK WPA-PSK-SHA256 SAE", "    ieee80211w=1", "    psk=\(psk)"]
        } else {
            lines.append("    key_mgmt=NONE")
        }
        return (lines + ["}"]).joined(separator: "\n") + "\n"
    }
}
