/// Everything the interactor knows: the observable ``AlbumState`` and the bookkeeping behind
/// it. A plain value: the ``PublishPhoto`` reducer is the only code that changes it.
public struct Album: Equatable, Sendable {
    /// What the frame shows; views observe this, through the runner's state flow.
    public internal(set) var state = AlbumState.initial
    /// The screen's size, once known.
    public internal(set) var frameSize: FrameSize?
    /// The repository's list, as last published.
    var listState = PhotoListState.loading
    /// The order of the rotation.
    var shuffle = PhotoShuffle()
    /// The random source of the shuffle, part of the value so that a reduction is pure.
    var random: SplitMix64
    /// Photos that failed to prepare, and how much of that the log has been told.
    var failures = FailureBook()
    /// The photo whose frame was asked for and has not been answered.
    var preparing: Photo?
    /// The next photo, prepared before its tick.
    var ready: ShownPhoto?
    /// A photo to prepare before drawing a new one from the shuffle (its frame was thrown away
    /// because the screen changed size).
    var queued: Photo?
    /// When the scheduled tick comes due, if one is scheduled.
    public internal(set) var nextTick: AlbumTime?
    /// The interval ran out before the next frame was ready: show it as soon as it is.
    var tickIsDue = false
    /// Photos presented so far (the first, and each tick that showed one).
    var presentations = 0
    /// The round as it was saved last, so an unchanged round is not written again.
    var savedRound: ShuffleSnapshot?
    /// The emptiness last reported, so it is said once.
    var reportedEmptiness: AlbumState.Content?
    /// When the notice on screen goes, if one shows.
    public internal(set) var noticeEnds: AlbumTime?
    /// The wall clock has been set: a late "clock found unset" changes nothing.
    var clockIsSet = false

    /// Creates an album whose shuffle draws from `random` (seeded, for a reproducible order).
    public init(random: SplitMix64) {
        self.random = random
    }

    /// Where the shuffle round stands now.
    public var roundSnapshot: ShuffleSnapshot { shuffle.snapshot }

    /// Whether `photo` failed twice and is left out of the rotation until it is listed anew.
    public func isSkipped(_ photo: Photo) -> Bool { failures.skipped.contains(photo) }

    /// The photo on screen with its frame, if any.
    public var shown: ShownPhoto? {
        if case .showing(let shown) = state.content { return shown }
        return nil
    }
}
