/// The display's power state (DPMS).
public enum DisplayPower: Equatable, Sendable {
    /// Lit, showing the album.
    case on
    /// Blanked (DPMS off), for quiet hours; the slideshow keeps its place.
    case off
}
