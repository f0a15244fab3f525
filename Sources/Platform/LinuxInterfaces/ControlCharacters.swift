extension String {
    /// This text with its control characters escaped, for a log line or a report line: C0
    /// (`\n`, `\r`, `\t`, `\x1B`, ...), DEL, C1, the line and paragraph separators (`\u{2028}`)
    /// and the bidirectional controls (`\u{202E}`, which would reorder the rest of the line).
    /// Backslashes are left alone, so text escaped once (a photo's id) is not escaped again. A
    /// line of a settings file or a file name can then never split, colour or forge a log line.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var text = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x00..<0x20, 0x7F: text += "\\x" + Self.hex(scalar.value)
            case 0x80..<0xA0, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// This text as a message quotes it: control characters escaped (``escapingControlCharacters``)
    /// and, past `limit` characters, cut short with "…" and its full length, so a hostile
    /// argument can neither recolour a terminal nor fill a journal.
    public func quotedForMessage(limit: Int = 60) -> String {
        let escaped = escapingControlCharacters
        guard escaped.count > limit else { return escaped }
        return String(escaped.prefix(limit)) + "… (\(count) characters)"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count < 2 ? "0" + text : text
    }
}
