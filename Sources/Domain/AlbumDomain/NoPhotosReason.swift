/// Why there is no photo to show.
public enum NoPhotosReason: Equatable, Sendable {
    /// The source holds no photos.
    case emptyAlbum
    /// Every photo failed to decode.
    case noneReadable(skipped: Int)
}
