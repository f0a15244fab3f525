/// A line of a settings file that was left out, and why.
public struct SettingsProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line number, from 1.
    public var line: Int
    /// Why the line was left out, in words a parent can act on. Never the line's value: a
    /// line that is not `key = value` may be a password.
    public var reason: String
    /// The setting the line seems to be about (its text before `=` or `:`, lowercased, spaces as
    /// dashes), when it has one: what tells that a line left out was the Wi-Fi password's.
    public var key: String?

    /// Creates a problem.
    public init(file: String, line: Int, reason: String, key: String? = nil) {
        self.file = file
        self.line = line
        self.reason = reason
        self.key = key
    }

    /// The key stays in the program: it may be a password written alone on a line.
    private enum CodingKeys: String, CodingKey {
        case file, line, reason
    }

    /// Whether the line seems to be about the Wi-Fi (its name, password or country) or a password:
    /// while such a line is left out, the card joins no network (it fails closed, never open).
    public var isAboutWiFi: Bool {
        guard let key else { return false }
        return SettingsFile.looksLikeWiFi(key)
    }

    public var description: String {
        line == 0 ? "\(file): \(reason)" : "\(file) line \(line): \(reason); this line is left out"
    }
}
