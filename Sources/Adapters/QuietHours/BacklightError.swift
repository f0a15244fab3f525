/// The backlight could not be read or set.
public enum BacklightError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The brightness file cannot be read.
    case unreadable(String)
    /// The brightness file cannot be written (the service needs a udev rule or a writable path).
    case unwritable(String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .unwritable(let path, let reason):
            "cannot set \(path) (\(reason)); install.sh adds a udev rule that lets the video group set it"
        }
    }
}
