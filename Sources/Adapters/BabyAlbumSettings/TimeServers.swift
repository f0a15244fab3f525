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
            throw SettingValueError("'\(word)' is not a host name or IP address")
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

    static func isHostOrAddress(_ word: String) -> Bool {
        guard word.utf8.count <= 253, let first = word.first, first != "-", first != "." else { return false }
        return word.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" || $0 == ":" }
    }
}

/// A setting's value that cannot be used, with the reason in one line.
public struct SettingValueError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public let description: String

    /// Creates the error with its reason.
    public init(_ description: String) { self.description = description }
}
