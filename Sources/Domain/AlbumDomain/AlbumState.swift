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

/// A photo fading in over the photo before it: a single gradual change, linear per channel.
///
/// It names the photo it fades from but holds none of its pixels: the screen fades from the
/// picture it shows, so the frame faded from is freed as soon as the screen has let go of it
/// (one full frame less, from the end of the fade to the next photo).
public struct Fade: Equatable, Sendable {
    /// The photo it fades from (the one on screen before).
    public let from: Photo
    /// How long the fade takes.
    public let duration: Duration

    /// Creates a fade.
    public init(from: Photo, duration: Duration) {
        self.from = from
        self.duration = duration
    }
}

/// How one photo gives way to the next (`--transition`).
public enum PhotoTransition: Equatable, Sendable {
    /// The new photo replaces the old one at once.
    case cut
    /// The new photo fades in over the old one in this long.
    case fade(Duration)
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

/// How the display is kept quiet during quiet hours (`--quiet-mode`).
public enum QuietDisplay: Equatable, Sendable, CustomStringConvertible {
    /// The display is switched off (DPMS off).
    case powerOff
    /// The signal stays on with a black picture (for TVs that show a bright "no signal"
    /// banner, or that wake themselves).
    case black
    /// The photo on screen stays, with the backlight lowered to this percentage (1–100) of
    /// its full brightness.
    case dimmed(percent: Int)

    public var description: String {
        switch self {
        case .powerOff: "display off"
        case .black: "black screen"
        case .dimmed(let percent): "backlight dimmed to \(percent) %"
        }
    }
}

/// A small line of the frame's own over the picture: calm, one line, never flashing.
public enum FrameNotice: Equatable, Sendable {
    /// The wall clock has not been set since power-on; `advice` says how to set it.
    case clockNotSet(advice: String)

    /// The words on screen.
    public var text: String {
        switch self {
        case .clockNotSet(let advice): "Clock not set: \(advice)"
        }
    }
}

/// Why the album ended.
public enum AlbumEnd: Equatable, Sendable, CustomStringConvertible {
    /// The run was limited to this many photos (`--count`) and showed them.
    case countReached(Int)
    /// The hardware exit button was held.
    case exitButton(ExitRequest)
    /// A signal asked the process to stop.
    case signal(Int32)
    /// The settings changed: the command starts again with them (the slideshow's reload).
    case restartRequested

    /// Whether the view gives the screen back at once. A run that showed its count keeps its
    /// last photo on screen until the process ends; the exit button and signals end it now.
    public var givesTheScreenBack: Bool {
        if case .countReached = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .countReached(let count): "showed \(count) photos, done"
        case .exitButton(let request): "exit button: \(request) ended the slideshow"
        case .signal(let number): "signal \(number) ended the slideshow"
        case .restartRequested: "the settings changed: the slideshow starts again with them"
        }
    }
}
