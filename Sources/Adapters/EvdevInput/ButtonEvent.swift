/// A change of a key that may be the exit button, from a device that may carry it.
public struct ButtonEvent: Sendable, Equatable {
    /// The device, as shown in the log and the ``ExitRequest`` (`gpio-keys (/dev/input/event0)`).
    public var device: String
    /// The key code (`KEY_POWER` = 116).
    public var key: KeyCode
    /// `true` when pressed, `false` when released (key repeats are not button events).
    public var isPressed: Bool

    /// Creates a button event.
    public init(device: String, key: KeyCode, isPressed: Bool) {
        self.device = device
        self.key = key
        self.isPressed = isPressed
    }
}
