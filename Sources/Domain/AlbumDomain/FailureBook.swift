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
