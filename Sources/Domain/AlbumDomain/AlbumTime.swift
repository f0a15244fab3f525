/// A moment on the slideshow's clock, as time since the run started. The runner reads its
/// clock and stamps the actions that need the time; the domain never reads a clock.
public struct AlbumTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Time since the run started.
    public var sinceStart: Duration

    /// Creates a moment `sinceStart` after the run started.
    public init(sinceStart: Duration) {
        self.sinceStart = sinceStart
    }

    /// The start of the run.
    public static let start = AlbumTime(sinceStart: .zero)

    /// The moment `duration` later.
    public func advanced(by duration: Duration) -> AlbumTime {
        AlbumTime(sinceStart: sinceStart + duration)
    }

    public static func < (lhs: AlbumTime, rhs: AlbumTime) -> Bool { lhs.sinceStart < rhs.sinceStart }

    public var description: String { "t+\(sinceStart)" }
}
