/// The interactor: a pure reducer, (album, action) → (album, effects).
///
/// It shows the first photo as soon as the repository has one and its frame is prepared, then
/// a different photo every `interval`, chosen by a ``PhotoShuffle``. While a photo is on screen
/// the next one is prepared, so a tick only swaps frames; when that fails, another is asked for
/// at once. Photos that fail are retried once later, then left out; the slideshow goes on with
/// the others, and after a few lines the failures are only summarised.
///
/// The next tick is one interval after the photo appeared: a schedule that fell behind (a
/// stopped process, a suspended board, a slow decode) shows one photo and then waits a whole
/// interval, so photos never flash by in a burst.
///
/// No clock, no tasks, no I/O: time comes in with the actions that need it, and everything
/// to be done goes out as ``AlbumEffect`` values for the runner.
public struct PublishPhoto: Sendable {
    /// How long each photo stays.
    public let interval: Duration
    /// The album ends after this many presentations (the first photo, and each tick that
    /// shows one, even the same photo again); `nil` runs until the exit button or a signal.
    public let presentationLimit: Int?
    /// How a photo gives way to the next.
    public let transition: PhotoTransition

    /// Creates the reducer; `interval` must be positive.
    public init(interval: Duration, presentationLimit: Int? = nil, transition: PhotoTransition = .cut) {
        precondition(interval > .zero, "the interval must be positive")
        self.interval = interval
        self.presentationLimit = presentationLimit
        self.transition = transition
    }

    /// How late the next photo may be: the previous one stays on screen at most this long past its interval.
    public static let patience: Duration = .seconds(2)
    /// How long a notice (the "clock not set" line, an update's outcome) stays on screen at most.
    public static let noticeDuration: Duration = .seconds(60)
    /// What is left of ``patience`` for the photo after one passed over to be decoded.
    public static let reserveForTheNext: Duration = .seconds(1)

    /// How long the decode of the next photo may take, from when it is asked for (as the photo
    /// before it appears): its interval and ``patience``, less ``reserveForTheNext``. A photo not
    /// decoded by then fails and is passed over for the next one, which still arrives within
    /// ``patience`` past the interval; it is tried once more later (the board may have been busy).
    public var decodeDeadline: Duration { interval + Self.patience - Self.reserveForTheNext }

    /// Applies `action` to `album` and returns what must be done, in order.
    public func reduce(_ album: inout Album, _ action: AlbumAction) -> [AlbumEffect] {
        guard album.state.end == nil else { return [] }
        var reduction = Reduction(
            album: album, interval: interval, presentationLimit: presentationLimit, transition: transition)
        reduction.apply(action)
        album = reduction.album
        return reduction.effects
    }
}
