/// How one photo gives way to the next (`--transition`).
public enum PhotoTransition: Equatable, Sendable {
    /// The new photo replaces the old one at once.
    case cut
    /// The new photo fades in over the old one in this long.
    case fade(Duration)
}
