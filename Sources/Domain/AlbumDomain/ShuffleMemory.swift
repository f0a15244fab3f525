/// Where the slideshow keeps its place in the shuffle round, so that a restart (or a power cut)
/// continues the round instead of starting a fresh one that may repeat recent photos.
///
/// ``PublishPhoto`` saves a snapshot each time it hands out a photo and loads one at start.
/// Implementations must never throw or crash: a missing, corrupt or foreign snapshot is `nil`.
public protocol ShuffleMemory: Sendable {
    /// The snapshot saved last, or `nil` when there is none that fits.
    func load() -> ShuffleSnapshot?
    /// Saves `snapshot`, replacing the previous one atomically (all of it or nothing).
    func save(_ snapshot: ShuffleSnapshot)
}
