/// What a ``PollLoop`` does after its client handled a turn.
public enum PollNext: Sendable {
    /// Wait again.
    case wait
    /// End the loop (the client's own end: the display closed, the album ended).
    case end
}
