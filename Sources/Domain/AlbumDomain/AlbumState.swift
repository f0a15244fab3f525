/// Everything the frame shows, as one value. Only the ``PublishPhoto`` reducer changes it.
public struct AlbumState: Equatable, Sendable {
    /// What is on screen.
    public var content: Content
    /// Whether the display is lit.
    public var displayPower: DisplayPower
    /// Set once the album has ended, and why: the view gives the screen back (the console).
    public var end: AlbumEnd?
    /// How the photo on screen arrived, when it fades in over the one before.
    public var fade: Fade?
    /// Set during quiet hours: how the display is kept quiet.
    public var quiet: QuietDisplay?
    /// A small line the frame shows over the picture (the clock is not set), if any.
    public var notice: FrameNotice?

    /// Creates a state.
    public init(content: Content, displayPower: DisplayPower = .on, end: AlbumEnd? = nil) {
        self.content = content
        self.displayPower = displayPower
        self.end = end
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
