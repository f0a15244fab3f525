/// One key a settings file may use: a long option of the command, as its parser describes it.
public struct SettingKey: Sendable, Equatable, Codable {
    /// The long option name (`interval`).
    public var name: String
    /// A flag (`yes`/`no`), not an option with a value.
    public var isFlag: Bool
    /// May be given several times (one line each).
    public var isRepeating: Bool
    /// The default, as the help shows it; `nil` when there is none.
    public var defaultValue: String?
    /// The help text.
    public var help: String
    /// Shown in the help (hidden options are for benchmarks and tests).
    public var isVisible: Bool
}
