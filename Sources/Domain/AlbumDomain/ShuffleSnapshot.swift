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
