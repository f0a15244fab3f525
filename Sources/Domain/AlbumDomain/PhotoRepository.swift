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
/// This is the expensive step, and it does file I/O: the runner calls it on a thread of its
/// own, never on Swift's cooperative pool, for the photo after the one on screen, so a tick
/// only swaps frames.
/// An error of ``FramePreparing`` that says whether trying the same file again could help.
public protocol PreparationFailure: Error {
    /// Whether the file will fail the same way however often it is tried (a format or feature
    /// the decoder lacks, such as HEIC or a 12-bit JPEG): it is skipped at once, not retried.
    var isLasting: Bool { get }
}

public protocol FramePreparing: Sendable {
    /// Decodes `photo` and scales it to `size`, or throws why it cannot.
    func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame
}
