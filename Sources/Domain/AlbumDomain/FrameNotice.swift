/// A small line of the frame's own over the picture: calm, one line, never flashing.
public enum FrameNotice: Equatable, Sendable {
    /// The wall clock has not been set since power-on; `advice` says how to set it.
    case clockNotSet(advice: String)
    /// What the card's last update did (shown once, for ``PublishPhoto/noticeDuration``).
    case update(UpdateOutcome)

    /// The words on screen.
    public var text: String {
        switch self {
        case .clockNotSet(let advice): "Clock not set: \(advice)"
        case .update(let outcome): outcome.text
        }
    }
}
