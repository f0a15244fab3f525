/// `wifi-name`, `wifi-password`, `wifi-country` and `wifi-hidden`: the home Wi-Fi a card joins,
/// as wpa_supplicant's configuration.
///
/// It fails closed: a network is open only when the parent writes `wifi-password = none`. No
/// password line, or one left out (misspelt, malformed, refused), means no network at all, with
/// a reason that names the line, never an open network that an impostor could offer.
public struct WiFiNetwork: Sendable, Equatable {
    /// The network's name (SSID), 1 to 32 bytes.
    public let name: String
    /// The passphrase (8 to 63 printable ASCII characters, or 64 hex digits); `nil` for an open
    /// network (`wifi-password = none`).
    public let password: String?
    /// The regulatory domain, an ISO 3166 code in capitals (`DE`).
    public let country: String
    /// A network that does not announce its name (`wifi-hidden = yes`): only then is it probed for.
    public let isHidden: Bool

    /// The password word that asks for an open network.
    public static let openNetworkWord = "none"

    /// Checks the settings together; throws a one-line reason that never quotes the password.
    /// `nil` without a name (a password alone is ignored). `wifiLinesLeftOut` are the lines of
    /// the settings file about the Wi-Fi that were left out: while there is one, no network.
    public init?(
        name: String?, password: String?, country: String?, isHidden: Bool = false, wifiLinesLeftOut: [Int] = [],
        nameLine: Int? = nil
    ) throws(SettingValueError) {
        guard let name, !name.isEmpty else { return nil }
        if let line = wifiLinesLeftOut.first {
            throw SettingValueError(
                "the Wi-Fi setting on line \(line) of the settings file was left out (see its reason): the card "
                    + "joins no network until it is fixed")
        }
        try Self.check(name: name, password: password, country: country)
        guard let password else {
            throw SettingValueError(
                "wifi-name is set\(nameLine.map { " (line \($0))" } ?? "") but wifi-password is not: add the line 'wifi-password = YOUR-PASSWORD' "
                    + "(or 'wifi-password = none' for an open network)")
        }
        guard let country else { throw SettingValueError("wifi-name needs wifi-country (e.g. DE or GB)") }
        self.name = name
        self.password = password.lowercased() == Self.openNetworkWord ? nil : password
        self.country = Self.countryCode(country)?.code ?? country
        self.isHidden = isHidden
    }

    /// Checks each setting that is given on its own terms (the file accepts them one line at a time).
    public static func check(name: String?, password: String?, country: String?) throws(SettingValueError) {
        if let name, !isNetworkName(name) {
            throw SettingValueError(
                "wifi-name must be 1 to 32 bytes, without quotes, line breaks or control characters")
        }
        if let country, countryCode(country) == nil {
            throw SettingValueError(
                "wifi-country must be the country's two-letter ISO code, e.g. DE, GB, FR or US")
        }
        if let password, password.lowercased() != openNetworkWord, !isPassphrase(password) {
            throw SettingValueError(
                "wifi-password must be 8 to 63 characters (letters, digits, spaces and ASCII punctuation, without \") "
                    + "or 64 hex digits; or none for an open network")
        }
    }

    /// `text` as a regulatory domain: ISO 3166 codes in any case (`de` is `DE`), and `UK` as
    /// `GB`, with a note; `nil` for anything else (`EU` is no country).
    public static func countryCode(_ text: String) -> (code: String, note: String?)? {
        let code = String(text.unicodeScalars.filter { $0.isASCII }.map(Character.init)).uppercased()
        guard code.count == 2, code.unicodeScalars.count == text.unicodeScalars.count else { return nil }
        if code == "UK" { return ("GB", "wifi-country UK is written GB (the ISO code of the United Kingdom)") }
        return isoCountries.contains(code) ? (code, nil) : nil
    }

    static func isNetworkName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32
            && !name.unicodeScalars.contains { $0 == "\"" || $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }

    /// 64 hex digits (ASCII only), or 8 to 63 characters of printable ASCII (bytes 32 to 126)
    /// without `"`: exactly what wpa_supplicant takes, so `doctor` never calls fine what it refuses.
    static func isPassphrase(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let hex = Array("0123456789abcdefABCDEF".utf8)
        if bytes.count == 64, bytes.allSatisfy(hex.contains) { return true }
        return (8...63).contains(bytes.count)
            && bytes.allSatisfy { (32...126).contains($0) && $0 != UInt8(ascii: "\"") }
    }

    /// wpa_supplicant's configuration (to be written with mode 0600: it holds the password).
    public var supplicantConfiguration: String {
        var lines = [
            "# Written at boot by babyalbum network-setup from the settings file's wifi-* settings.",
            "ctrl_interface=/run/wpa_supplicant", "country=\(country)", "network={", "    ssid=\"\(name)\"",
        ]
        if isHidden { lines.append("    scan_ssid=1") }
        if let password {
            let psk = password.utf8.count == 64 ? password : "\"\(password)\""
            lines += ["    key_mgmt=WPA-PSK WPA-PSK-SHA256 SAE", "    ieee80211w=1", "    psk=\(psk)"]
        } else {
            lines.append("    key_mgmt=NONE")
        }
        return (lines + ["}"]).joined(separator: "\n") + "\n"
    }

    /// ISO 3166-1 alpha-2, as tzdata's iso3166.tab lists it.
    static let isoCountries: Set<String> = Set(
        """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT \
        BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH \
        ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT \
        HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS \
        LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI \
        NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG \
        SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG \
        UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
        """.split(separator: " ").map(String.init))
}
