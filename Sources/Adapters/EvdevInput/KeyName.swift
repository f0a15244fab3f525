import CEvdev

/// Key names (`KEY_POWER`) and codes (`116`), as libevdev knows them
/// (`libevdev_event_code_from_name`, `libevdev_event_code_get_name`).
public enum KeyName {
    /// Parses `KEY_POWER`, `power`, `BTN_LEFT`, `116` or `0x74` into a key code; `nil` if unknown.
    ///
    /// Names are case-insensitive; without a prefix, `KEY_` is tried first, then `BTN_`. Every
    /// `KEY_*` and `BTN_*` name of the kernel's `linux/input-event-codes.h` is accepted, also the
    /// aliases libevdev does not look up (``aliases``, ``newerNames``).
    public static func code(for text: String) -> KeyCode? {
        rawCode(for: text).map { KeyCode($0) }
    }

    private static func rawCode(for text: String) -> UInt16? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        if let value = UInt16(trimmed) { return value <= maxCode ? value : nil }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("0x"), let value = UInt16(lower.dropFirst(2), radix: 16) {
            return value <= maxCode ? value : nil
        }
        let upper = trimmed.uppercased()
        return lookUp(upper) ?? lookUp("KEY_" + upper) ?? lookUp("BTN_" + upper)
    }

    /// The kernel's name for a key code (`KEY_POWER` for 116), or the number if it has none.
    public static func name(for key: KeyCode) -> String {
        let code = key.rawValue
        if code < maxCode, let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) {
            return String(cString: name)
        }
        return newerNames[code] ?? String(code)
    }

    /// `KEY_MAX` of the kernel headers: the highest key code.
    public static let maxCode: UInt16 = 0x2ff

    /// Second names of `linux/input-event-codes.h` (Debian 12's 6.1 headers) for codes libevdev 1.13
    /// names otherwise (`KEY_HANGUEL` for `KEY_HANGEUL`, `BTN_MOUSE` for `BTN_LEFT`); libevdev does
    /// not look them up. `KeyNameTests` checks them, and ``newerNames``, against the installed header.
    static let aliases: [String: UInt16] = [
        "KEY_HANGUEL": 122, "KEY_SCREENLOCK": 152, "KEY_DIRECTION": 153, "KEY_DASHBOARD": 204,
        "KEY_BRIGHTNESS_ZERO": 244, "KEY_WIMAX": 246, "BTN_MISC": 256, "BTN_MOUSE": 272, "BTN_JOYSTICK": 288,
        "BTN_GAMEPAD": 304, "BTN_DIGI": 320, "BTN_WHEEL": 336, "KEY_ZOOM": 372, "KEY_SCREEN": 375,
        "KEY_BRIGHTNESS_TOGGLE": 431, "BTN_TRIGGER_HAPPY": 704,
    ]

    /// Keys of the 6.1 headers newer than libevdev 1.13's tables.
    static let newerNames: [UInt16: String] = [447: "KEY_LINK_PHONE", 562: "KEY_REFRESH_RATE_TOGGLE"]

    /// A full `KEY_*`/`BTN_*` name; `KEY_MAX` is a limit, not a key.
    private static func lookUp(_ name: String) -> UInt16? {
        if let code = aliases[name] ?? newerNames.first(where: { $0.value == name })?.key { return code }
        guard name.hasPrefix("KEY_") || name.hasPrefix("BTN_") else { return nil }
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
        return code >= 0 && code < Int32(maxCode) ? UInt16(code) : nil
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
