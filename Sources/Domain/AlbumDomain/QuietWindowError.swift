/// Why a `--quiet-hours` window is not valid.
public enum QuietWindowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The window does not have the form `[DAYS ]HH:MM-HH:MM`.
    case malformed(String)
    /// A day name is not one of mon, tue, wed, thu, fri, sat, sun.
    case unknownDay(String)
    /// The window starts when it ends.
    case startEqualsEnd
    /// The window has no days.
    case noDays

    public var description: String {
        switch self {
        case .malformed(let text):
            "'\(text)' is not a quiet window: use HH:MM-HH:MM, optionally after days, e.g. 'mon-fri 19:00-07:00'"
        case .unknownDay(let text): "'\(text)' is not a day: use mon, tue, wed, thu, fri, sat, sun"
        case .startEqualsEnd: "a quiet window must not start when it ends"
        case .noDays: "a quiet window needs at least one day"
        }
    }
}
