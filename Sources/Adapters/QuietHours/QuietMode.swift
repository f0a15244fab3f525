import AlbumDomain

/// `--quiet-mode off|black|dim[:PERCENT]`: how the display is kept quiet during quiet hours.
public enum QuietMode: Equatable, Sendable, CustomStringConvertible {
    /// The display is switched off (DPMS off).
    case off
    /// The signal stays on with a black picture.
    case black
    /// The backlight is lowered to a percentage (1–100); black where there is no backlight.
    case dim(percent: Int)

    /// The percentage `dim` takes without one.
    public static let defaultDimPercent = 10

    /// Parses `off`, `black`, `dim` or `dim:PERCENT` (1–100); `nil` for anything else.
    public init?(argument: String) {
        switch argument {
        case "off": self = .off
        case "black": self = .black
        case "dim": self = .dim(percent: Self.defaultDimPercent)
        default:
            guard argument.hasPrefix("dim:"), let percent = Int(argument.dropFirst(4)), (1...100).contains(percent)
            else { return nil }
            self = .dim(percent: percent)
        }
    }

    /// The domain's quiet display for this mode, given the backlight found (`dim` without one
    /// falls back to black).
    public func display(backlight: Backlight?) -> QuietDisplay {
        switch self {
        case .off: .powerOff
        case .black: .black
        case .dim(let percent): backlight == nil ? .black : .dimmed(percent: percent)
        }
    }

    public var description: String {
        switch self {
        case .off: "off"
        case .black: "black"
        case .dim(let percent): "dim:\(percent)"
        }
    }
}
