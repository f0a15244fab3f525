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
