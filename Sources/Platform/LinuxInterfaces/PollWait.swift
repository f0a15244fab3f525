/// What one turn of a ``PollLoop`` waits for: descriptors and, at most, how long.
public struct PollWait: Sendable {
    /// The descriptors and the events wanted of each (a negative descriptor is skipped, as
    /// `poll` does).
    public var descriptors: [(descriptor: Int32, events: PollEvents)]
    /// The longest wait; `nil` waits until a descriptor is ready. Rounded up to milliseconds.
    public var timeout: Duration?

    /// A wait for `descriptors`, at most `timeout`.
    public init(_ descriptors: [(descriptor: Int32, events: PollEvents)], timeout: Duration? = nil) {
        self.descriptors = descriptors
        self.timeout = timeout
    }

    /// `timeout` as `poll`'s milliseconds (-1 without one).
    var milliseconds: Int32 {
        guard let timeout else { return -1 }
        return timeout.roundedUpMilliseconds
    }
}
