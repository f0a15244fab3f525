/// The photo list together with its loading state, as a repository publishes it.
public enum PhotoListState: Equatable, Sendable {
    /// The list is being read (a folder being scanned).
    case loading
    /// The list was read; it may be empty.
    case loaded([Photo])
    /// The list cannot be read (a folder that does not exist or cannot be opened), and why.
    case failed(reason: String)
}

/// Where photos come from, hidden behind their loading state.
public protocol PhotoRepository: Sendable {
    /// The photo list as it changes: the current state first, then every change.
    func photoListStates() -> AsyncStream<PhotoListState>
}

/// Turns a photo into a frame the view can show at once (decoded and scaled to the screen).
///
/// This is the expensive step; ``PublishPhoto`` runs it for the next photo while the current
/// one is on screen, so a tick only swaps frames.
public protocol FramePreparing: Sendable {
    /// Decodes `photo` and scales it to the screen, or throws why it cannot.
    func prepareFrame(for photo: Photo) async throws -> Frame
}

/// What ``PublishPhoto`` reports along the way, for the log. Emitting these is not I/O; the
/// application decides where they go.
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
    /// The photo list cannot be read.
    case photoListFailed(reason: String)
    /// The album has no photos.
    case albumEmpty
    /// Every photo of the album failed to decode.
    case noReadablePhotos(skipped: Int)
}
