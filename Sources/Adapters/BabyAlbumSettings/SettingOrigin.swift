/// Where a setting in effect came from.
public enum SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    /// Nobody set it.
    case defaultValue
    /// A line of the settings file.
    case file(path: String, line: Int)
    /// The command line (for the service: `/etc/default/babyalbum`).
    case commandLine

    public var description: String {
        switch self {
        case .defaultValue: "default"
        case .file(let path, let line): "\(path) line \(line)"
        case .commandLine: "command line"
        }
    }
}
