/// Which button ends the slideshow, and how long it must be held.
public struct ExitButtonPolicy: Sendable, Equatable {
    /// Accepted key codes (Linux `KEY_*` values).
    public var keyCodes: [KeyCode]
    /// `--exit-device`: only the devices it names may carry the button (a keyboard too), by part of
    /// their name or `phys`, or by a `/dev/input/...` path. `nil`: any button that is not a keyboard
    /// (see ``ExitDeviceChoice``).
    public var device: String?
    /// How long the button must be held; zero exits on press.
    public var hold: Duration

    /// Creates a policy.
    public init(keyCodes: [KeyCode], device: String?, hold: Duration) {
        self.keyCodes = keyCodes
        self.device = device
        self.hold = hold
    }

    /// The default: `KEY_POWER` (what the Raspberry Pi `gpio-key` overlay sends) from any button that
    /// is not a keyboard, held 1 s.
    public static let `default` = ExitButtonPolicy(keyCodes: [116], device: nil, hold: .seconds(1))

    /// The key names of ``keyCodes``, for log lines (`KEY_POWER, KEY_HOMEPAGE`).
    public var keyNames: String {
        keyCodes.map { KeyName.name(for: $0) }.joined(separator: ", ")
    }
}
