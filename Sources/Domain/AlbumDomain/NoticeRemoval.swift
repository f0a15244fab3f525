/// Why a notice left the screen.
public enum NoticeRemoval: Equatable, Sendable, CustomStringConvertible {
    /// Its time on screen is over.
    case timeUp
    /// The wall clock has been set.
    case clockSet
    /// Another notice took its place.
    case replaced

    public var description: String {
        switch self {
        case .timeUp: "its minute is over"
        case .clockSet: "the clock is set"
        case .replaced: "another notice took its place"
        }
    }
}
