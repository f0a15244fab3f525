/// A setting's value that cannot be used, with the reason in one line.
public struct SettingValueError: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public let description: String

    /// Creates the error with its reason.
    public init(_ description: String) { self.description = description }
}
