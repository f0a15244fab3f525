/// One `key = value` line of a settings file.
public struct SettingsEntry: Sendable, Equatable {
    /// The option's long name, lowercased, without leading dashes (`interval`).
    public var key: String
    /// The value, trimmed, without surrounding quotes.
    public var value: String
    /// The line number in the file, from 1.
    public var line: Int

    /// Creates an entry.
    public init(key: String, value: String, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}
