/// How the screen is mounted: turned clockwise from its native landscape (or portrait) position,
/// in quarter turns. Photos are drawn turned the other way, so they are upright on the wall.
///
/// The numbers agree with the kernel's connector property `panel orientation`: a panel whose
/// left side is up has been turned 90° clockwise, one whose right side is up 270°.
public enum ScreenRotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// Mounted as the panel was made.
    case none = 0
    /// Turned 90° clockwise (the kernel's "Left Side Up").
    case clockwise90 = 1
    /// Upside down (the kernel's "Upside Down").
    case upsideDown = 2
    /// Turned 270° clockwise (the kernel's "Right Side Up").
    case clockwise270 = 3

    /// The rotation for `degrees` (0, 90, 180 or 270), or `nil`.
    public init?(degrees: Int) {
        guard degrees % 90 == 0, let rotation = ScreenRotation(rawValue: degrees / 90) else { return nil }
        self = rotation
    }

    /// The rotation the kernel's `panel orientation` value asks for; `nil` for a value it does
    /// not define.
    public init?(panelOrientation: String) {
        switch panelOrientation {
        case "Normal": self = .none
        case "Left Side Up": self = .clockwise90
        case "Upside Down": self = .upsideDown
        case "Right Side Up": self = .clockwise270
        default: return nil
        }
    }

    /// Quarter turns clockwise, 0 to 3.
    public var quarterTurns: Int { rawValue }

    /// Degrees clockwise.
    public var degrees: Int { rawValue * 90 }

    /// Whether the picture's width runs along the panel's height.
    public var swapsAxes: Bool { rawValue % 2 == 1 }

    public var description: String { "\(degrees)°" }
}
