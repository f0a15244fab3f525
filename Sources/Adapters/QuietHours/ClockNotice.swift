/// `--clock-notice`: whether the frame shows the small "Clock not set" line on screen for the
/// first minute while the wall clock has not been set since power-on.
public enum ClockNoticeSetting: String, CaseIterable, Sendable, CustomStringConvertible {
    /// On a screen, not in `png:DIR` files (the default).
    case auto
    /// On every output.
    case on
    /// Never.
    case off

    public var description: String { rawValue }

    /// Whether the line is shown on an output that is (`isScreen`) or is not a screen.
    public func isShown(onScreen isScreen: Bool) -> Bool {
        switch self {
        case .auto: isScreen
        case .on: true
        case .off: false
        }
    }
}
