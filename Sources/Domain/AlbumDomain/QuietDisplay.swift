/// How the display is kept quiet during quiet hours (`--quiet-mode`).
public enum QuietDisplay: Equatable, Sendable, CustomStringConvertible {
    /// The display is switched off (DPMS off).
    case powerOff
    /// The signal stays on with a black picture (for TVs that show a bright "no signal"
    /// banner, or that wake themselves).
    case black
    /// The photo on screen stays, with the backlight lowered to this percentage (1–100) of
    /// its full brightness.
    case dimmed(percent: Int)

    public var description: String {
        switch self {
        case .powerOff: "display off"
        case .black: "black screen"
        case .dimmed(let percent): "backlight dimmed to \(percent) %"
        }
    }
}
