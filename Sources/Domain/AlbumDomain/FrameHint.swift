/// A line for a parent on a screen that has nothing to show; its words are the edge's, which
/// knows where the photos go.
public enum FrameHint: Equatable, Sendable {
    /// No photo can be shown: where to put photos.
    case noPhotos
}
