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

/// The photos that failed to prepare: out of the rotation until their second try, or skipped
/// for good; and how many failures went without a log line of their own.
struct FailureBook: Equatable, Sendable {
    /// Failures reported with a line each, per kind, before the rest are only counted.
    static let linesPerKind = 5

    /// Failed once, waiting out of the rotation for the second try.
    var waitingForRetry: Set<Photo> = []
    /// Failed once (retried or waiting to be).
    var failedOnce: Set<Photo> = []
    /// Failed twice: left out until the repository lists the photo anew.
    var skipped: Set<Photo> = []
    /// Lines written so far, and failures since the last summary without a line.
    var retryLines = 0
    var skipLines = 0
    var unreportedRetries = 0
    var unreportedSkips = 0

    /// Forgets every photo that is no longer listed: one that comes back gets a fresh chance.
    mutating func keepOnly(_ listed: Set<Photo>) {
        waitingForRetry.formIntersection(listed)
        failedOnce.formIntersection(listed)
        skipped.formIntersection(listed)
    }

    /// Records a failure of `photo`, returning the event to log, or `nil` once enough lines
    /// of that kind were written (the failure is then counted for the next summary). A
    /// `lasting` failure skips the photo at once: trying again cannot help.
    mutating func record(_ photo: Photo, reason: String, lasting: Bool = false) -> AlbumEvent? {
        if lasting {
            failedOnce.insert(photo)
            waitingForRetry.remove(photo)
        } else if failedOnce.insert(photo).inserted {
            waitingForRetry.insert(photo)
            retryLines += 1
            if retryLines <= Self.linesPerKind { return .photoRetryLater(photo, reason: reason) }
            unreportedRetries += 1
            return nil
        }
        skipped.insert(photo)
        skipLines += 1
        if skipLines <= Self.linesPerKind { return .photoSkipped(photo, reason: reason) }
        unreportedSkips += 1
        return nil
    }

    /// The summary of failures without a line of their own since the last one, if any.
    mutating func takeSummary() -> AlbumEvent? {
        guard unreportedRetries + unreportedSkips > 0 else { return nil }
        defer { (unreportedRetries, unreportedSkips) = (0, 0) }
        return .failuresSummarized(retried: unreportedRetries, skipped: unreportedSkips)
    }
}
