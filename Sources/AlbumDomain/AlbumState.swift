/// Everything the frame shows, as one value. Only ``PublishPhoto`` changes it.
public struct AlbumState: Equatable, Sendable {
    /// What is on screen.
    public var content: Content
    /// Whether the display is lit.
    public var displayPower: DisplayPower

    /// Creates a state.
    public init(content: Content, displayPower: DisplayPower = .on) {
        self.content = content
        self.displayPower = displayPower
    }

    /// The state before anything happened.
    public static let initial = AlbumState(content: .nothingLoaded)

    /// What is on screen.
    public enum Content: Equatable, Sendable {
        /// The album has not been started yet.
        case nothingLoaded
        /// The photo list is being read.
        case loading
        /// A photo is on screen.
        case showing(ShownPhoto)
        /// There is nothing to show, and why.
        case noPhotos(NoPhotosReason)
        /// The photos cannot be read at all (for example, the folder cannot be opened).
        case failed(reason: String)
    }
}

/// A photo on screen together with its prepared frame.
public struct ShownPhoto: Equatable, Sendable {
    /// The photo.
    public let photo: Photo
    /// The photo scaled to the screen.
    public let frame: Frame

    /// Creates a shown photo.
    public init(photo: Photo, frame: Frame) {
        self.photo = photo
        self.frame = frame
    }
}

/// Why there is no photo to show.
public enum NoPhotosReason: Equatable, Sendable {
    /// The source holds no photos.
    case emptyAlbum
    /// Every photo failed to decode.
    case noneReadable(skipped: Int)
}

/// The display's power state (DPMS).
public enum DisplayPower: Equatable, Sendable {
    /// Lit, showing the album.
    case on
    /// Blanked (DPMS off), for quiet hours; the slideshow keeps its place.
    case off
}
