/// Whether one input device may end the slideshow, which exit keys count from it, and why.
public struct ExitDeviceChoice: Sendable, Equatable, CustomStringConvertible {
    /// The exit keys that count from this device; empty if it may not end the slideshow.
    public var exitKeys: [KeyCode]
    /// Why, for the start-up log and `doctor` (`a button, not a keyboard`).
    public var reason: String

    /// Whether this device may end the slideshow.
    public var mayExit: Bool { !exitKeys.isEmpty }

    public var description: String {
        mayExit
            ? "may end the slideshow (\(exitKeys.map { KeyName.name(for: $0) }.joined(separator: ", "))): \(reason)"
            : "may not end the slideshow: \(reason)"
    }

    /// Decides for `device`, among every device present (`all`, which may include `device`):
    ///
    /// - a device that cannot send an exit key never counts;
    /// - with `--exit-device`, exactly the devices it names count (a keyboard too, when named);
    /// - without it, only buttons count: not a keyboard (letter keys `KEY_A`…`KEY_Z`), nor another
    ///   interface of a keyboard's USB or Bluetooth device (its "System Control" Power key).
    public static func decide(
        for device: InputDeviceIdentity, among all: [InputDeviceIdentity], policy: ExitButtonPolicy,
        resolve: (String) -> String? = ExitDeviceFilter.resolvedPath
    ) -> ExitDeviceChoice {
        let keys = policy.keyCodes.filter { device.keys.contains($0.rawValue) }
        guard !keys.isEmpty else { return ExitDeviceChoice(exitKeys: [], reason: "it cannot send \(policy.keyNames)") }
        let filter = ExitDeviceFilter(policy.device)
        if filter.criterion != .buttonsOnly {
            return filter.names(device, resolve: resolve)
                ? ExitDeviceChoice(exitKeys: keys, reason: "chosen by --exit-device '\(policy.device ?? "")'")
                : ExitDeviceChoice(exitKeys: [], reason: "not the --exit-device '\(policy.device ?? "")'")
        }
        if device.isKeyboard {
            return ExitDeviceChoice(
                exitKeys: [],
                reason: "a keyboard (it has letter keys); only --exit-device can make a keyboard the exit button")
        }
        if let keyboard = all.first(where: { $0.isKeyboard && device.isCompanion(of: $0) }) {
            return ExitDeviceChoice(
                exitKeys: [],
                reason: "part of the keyboard '\(keyboard.name)' (\(keyboard.path)); only --exit-device can choose it")
        }
        return ExitDeviceChoice(exitKeys: keys, reason: "a button, not a keyboard")
    }
}
