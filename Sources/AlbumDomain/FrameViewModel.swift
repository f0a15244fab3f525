/// What the view should draw, derived from ``AlbumState`` and nothing else.
public struct FrameViewModel: Equatable, Sendable {
    /// The picture to draw.
    public var content: Content
    /// Whether the display should be lit.
    public var displayPower: DisplayPower

    /// The picture to draw.
    public enum Content: Equatable, Sendable {
        /// A photo, already scaled to the screen with `scale`.
        case photo(Photo, frame: Frame, scale: ScaleMode)
        /// Nothing to show yet (starting, photos being read): a screen shows black, a file view
        /// writes nothing.
        case waiting
        /// A black screen because there is nothing to show; `reason` says why, for the log (a
        /// child cannot read).
        case black(reason: String)
    }

    /// Creates a view model.
    public init(content: Content, displayPower: DisplayPower) {
        self.content = content
        self.displayPower = displayPower
    }

    /// Derives what to draw from `state`; `scale` is how frames were fitted to the screen.
    public init(state: AlbumState, scale: ScaleMode) {
        displayPower = state.displayPower
        switch state.content {
        case .nothingLoaded, .loading:
            content = .waiting
        case .showing(let shown):
            content = .photo(shown.photo, frame: shown.frame, scale: scale)
        case .noPhotos(.emptyAlbum):
            content = .black(reason: "the album has no photos")
        case .noPhotos(.noneReadable(let skipped)):
            content = .black(reason: "none of the \(skipped) photos could be read")
        case .failed(let reason):
            content = .black(reason: reason)
        }
    }
}

/// A view: an adapter at the edge that draws view models (a screen, a folder of PNG files).
/// It never changes state.
public protocol FrameView: Sendable {
    /// Draws `viewModel`, returning once it is on screen.
    func render(_ viewModel: FrameViewModel) async throws
}
