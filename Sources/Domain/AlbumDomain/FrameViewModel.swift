/// What the view should draw, derived from ``AlbumState`` and nothing else.
public struct FrameViewModel: Equatable, Sendable {
    /// The picture to draw.
    public var content: Content
    /// Whether the display should be lit.
    public var displayPower: DisplayPower
    /// For a photo: how it replaces the picture before it. A screen animates it; a file view
    /// writes only the final frame.
    public var transition: FrameTransition?
    /// The backlight, as a percentage of its full brightness (1–100), when quiet hours dim it;
    /// `nil` for full brightness (the brightness the panel had when the frame started).
    public var backlightPercent: Int?
    /// A small line of the frame's own to draw over the picture (the clock is not set), if any.
    /// Never during quiet hours, nor once the album has ended.
    public var notice: String?
    /// What a parent can do about a black screen with nothing to show (no photos, or none that
    /// can be read): the edge draws it as one short line, like the notice. Never during quiet
    /// hours.
    public var hint: FrameHint?

    /// The picture to draw.
    public enum Content: Equatable, Sendable {
        /// A photo, already scaled to the screen.
        case photo(Photo, frame: Frame)
        /// Nothing to show yet (starting, photos being read): a screen shows black, a file view
        /// writes nothing.
        case waiting
        /// A black screen because there is nothing to show; `reason` says why, for the log (a
        /// child cannot read).
        case black(reason: String)
        /// The album has ended: a screen gives the display back (the console returns); a file
        /// view writes nothing more.
        case ended
        /// A picture made at the edge rather than by the domain (the notice over a black screen,
        /// drawn by ``FrameView`` decorators): drawn as it is, never faded.
        case picture(Frame)
    }

    /// Creates a view model.
    public init(content: Content, displayPower: DisplayPower, transition: FrameTransition? = nil) {
        self.content = content
        self.displayPower = displayPower
        self.transition = transition
    }

    /// Derives what to draw from `state`.
    public init(state: AlbumState) {
        displayPower = state.displayPower
        if let end = state.end, end.givesTheScreenBack {
            content = .ended
            displayPower = .on  // the console comes back lit, also in quiet hours
            return
        }
        if state.quiet == .black {
            content = .black(reason: "quiet hours")
            return
        }
        if case .dimmed(let percent) = state.quiet { backlightPercent = percent }
        if state.quiet == nil { notice = state.notice?.text }
        switch state.content {
        case .nothingLoaded, .loading:
            content = .waiting
        case .showing(let shown):
            content = .photo(shown.photo, frame: shown.frame)
            transition = state.fade.map { FrameTransition.fade(from: $0.from, duration: $0.duration) }
        case .noPhotos(.emptyAlbum):
            content = .black(reason: "the album has no photos")
            hint = state.quiet == nil ? .noPhotos : nil
        case .noPhotos(.noneReadable(let skipped)):
            content = .black(reason: "none of the \(skipped) photos could be read")
            hint = state.quiet == nil ? .noPhotos : nil
        case .failed(let reason):
            content = .black(reason: reason)
            hint = state.quiet == nil ? .noPhotos : nil
        }
    }
}
