/// What the ``PublishPhoto`` reducer asks the runner at the edge to do, as a plain value. The
/// runner performs it (off the domain, file I/O off the cooperative pool) and feeds the result
/// back as an ``AlbumAction``.
public enum AlbumEffect: Equatable, Sendable {
    /// Decode `photo` and scale it to `size`; answer with ``AlbumAction/framePrepared(_:_:now:)``
    /// or ``AlbumAction/framePreparationFailed(_:reason:now:)``. One at a time: the reducer asks
    /// for the next only after the last one answered.
    case prepareFrame(Photo, size: FrameSize)
    /// Keep where the shuffle round stands, for a restart (the ``ShuffleMemory``).
    case saveRound(ShuffleSnapshot)
    /// Send ``AlbumAction/intervalElapsed(now:)`` at `deadline`, replacing any tick scheduled before.
    case scheduleTick(at: AlbumTime)
    /// Forget the scheduled tick.
    case cancelTick
    /// Send ``AlbumAction/noticeTimeElapsed(now:)`` at `deadline` (the notice on screen goes then).
    case scheduleNoticeEnd(at: AlbumTime)
    /// Tell the log what happened.
    case report(AlbumEvent)
    /// The album has ended: stop feeding actions once the view has drawn the final state.
    case end
}

/// What the domain reports along the way, for the log. The application decides where it goes.
public enum AlbumEvent: Equatable, Sendable {
    /// The interval ran out; the next photo is being published.
    case intervalElapsed
    /// A photo is now on screen.
    case photoShown(Photo)
    /// A photo could not be prepared; it leaves the rotation for now and is tried once more later
    /// (it may have been caught half-copied).
    case photoRetryLater(Photo, reason: String)
    /// A photo could not be prepared, twice, and is left out of the rotation (until its file changes).
    case photoSkipped(Photo, reason: String)
    /// More photos failed than are worth a line each: `retried` went back for a second try and
    /// `skipped` were left out since the last report, without a line of their own.
    case failuresSummarized(retried: Int, skipped: Int)
    /// The photo list cannot be read.
    case photoListFailed(reason: String)
    /// The album has no photos.
    case albumEmpty
    /// Every photo of the album failed to decode.
    case noReadablePhotos(skipped: Int)
    /// Quiet hours began; the display is kept quiet this way.
    case quietHoursBegan(QuietDisplay)
    /// Quiet hours ended; the slideshow goes on.
    case quietHoursEnded
    /// A notice is on screen now.
    case noticeShown(FrameNotice)
    /// The notice left the screen, and why.
    case noticeRemoved(FrameNotice, because: NoticeRemoval)
    /// The album ended, and why.
    case ended(AlbumEnd)
}

/// Why a notice left the screen.
public enum NoticeRemoval: Equatable, Sendable, CustomStringConvertible {
    /// Its time on screen is over.
    case timeUp
    /// The wall clock has been set.
    case clockSet

    public var description: String {
        switch self {
        case .timeUp: "its minute is over"
        case .clockSet: "the clock is set"
        }
    }
}
