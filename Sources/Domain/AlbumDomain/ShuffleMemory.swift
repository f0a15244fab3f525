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

/// Where a shuffle round stands, in photo ids (``Photo/id``).
///
/// Photos in neither list are new to the round: they join what is left of it.
public struct ShuffleSnapshot: Equatable, Sendable {
    /// What is left of the round, next first.
    public var remaining: [PhotoID]
    /// What the round has shown so far, oldest first.
    public var shown: [PhotoID]
    /// The photo handed out last (it may end the previous round, so it is not always in ``shown``).
    public var last: PhotoID?

    /// Creates a snapshot.
    public init(remaining: [PhotoID], shown: [PhotoID] = [], last: PhotoID? = nil) {
        self.remaining = remaining
        self.shown = shown
        self.last = last
    }
}
