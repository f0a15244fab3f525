/// Why a file is looked at.
enum FileCause: Sendable, Equatable {
    /// Found by a scan.
    case scan
    /// `IN_CREATE`.
    case created
    /// `IN_MODIFY`.
    case modified
    /// `IN_CLOSE_WRITE`.
    case closedAfterWrite
    /// `IN_MOVED_TO`.
    case movedIn
    /// `IN_ATTRIB`.
    case attributesChanged
}
