/// The command line and the settings file's values in effect that a slideshow was resolved from.
struct SettingsAtStart: Decodable, Sendable {
    /// The slideshow's own options.
    var commandLine: [String]
    /// ``SettingsResolution/fileValues``.
    var fileValues: [[String]]
}
