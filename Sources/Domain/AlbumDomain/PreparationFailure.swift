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
