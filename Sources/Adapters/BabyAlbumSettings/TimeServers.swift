import LinuxInterfaces

/// `time-servers`: the NTP servers that set a card's clock (systemd-timesyncd's `NTP=`), host
/// names or IP addresses separated by spaces.
public struct TimeServers: Sendable, Equatable, CustomStringConvertible {
    /// Debian's NTP pool, the default.
    public static let debianPool = TimeServers(
        checked: ["0.debian.pool.ntp.org", "1.debian.pool.ntp.org", "2.debian.pool.ntp.org", "3.debian.pool.ntp.org"])

    /// The servers, in the order given.
    public let names: [String]

    private init(checked names: [String]) { self.names = names }

    /// Parses `text`; throws a one-line reason for a word that is not a host name or address.
    public init(parsing text: String) throws(SettingValueError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !words.isEmpty else { throw SettingValueError("give at least one NTP server") }
        for word in words where !Self.isHostOrAddress(word) {
            let port = word.contains(":") && !word.hasPrefix("[") && word.filter { $0 == ":" }.count == 1
            throw SettingValueError(
                "'\(word.quotedForMessage())' is not a host name or IP address"
                    + (port ? " (without a port: NTP servers answer on 123)" : ""))
        }
        names = words
    }

    public var description: String { names.joined(separator: " ") }

    /// The systemd-timesyncd drop-in that makes these the servers (the fallback list emptied, so
    /// no other server is asked).
    public var timesyncdDropIn: String {
        "# Written at boot by babyalbum network-setup from the settings file's time-servers.\n"
            + "[Time]\nNTP=\(description)\nFallbackNTP=\n"
    }

    /// A host name (dot-separated labels of letters, digits and inner dashes, not all digits at
    /// the end), an IPv4 address (four numbers 0 to 255) or an IPv6 address (`inet_pton`). A
    /// port (`pool.ntp.org:123`) is not: timesyncd's `NTP=` takes none.
    static func isHostOrAddress(_ word: String) -> Bool {
        guard word.utf8.count <= 253, word.unicodeScalars.allSatisfy(\.isASCII) else { return false }
        if word.contains(":") { return isIPv6Address(word) }
        let labels = word.split(separator: ".", omittingEmptySubsequences: false)
        if labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return labels.count == 4 && labels.allSatisfy { $0.count <= 3 && Int($0)! <= 255 }
        }
        let isLabel = { (label: Substring) in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
        return labels.allSatisfy(isLabel) && !(labels.last!.allSatisfy(\.isNumber))
    }
}
