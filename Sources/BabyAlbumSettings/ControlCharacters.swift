extension String {
    /// This text with its control characters escaped, for a log line or a report line: C0
    /// (`\n`, `\r`, `\t`, `\x1B`, ...), DEL, C1 and the line and paragraph separators (`\u{2028}`).
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
            case 0x80..<0xA0, 0x2028, 0x2029: text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: true
        default: false
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count < 2 ? "0" + text : text
    }
}
