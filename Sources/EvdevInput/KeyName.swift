/// Key names (`KEY_POWER`) and codes (`116`), from the kernel's `linux/input-event-codes.h`.
public enum KeyName {
    /// Parses `KEY_POWER`, `power`, `BTN_LEFT`, `116` or `0x74` into a key code; `nil` if unknown.
    ///
    /// Names are case-insensitive; without a prefix, `KEY_` is tried first, then `BTN_`.
    public static func code(for text: String) -> UInt16? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        if let value = UInt16(trimmed) { return value <= maxCode ? value : nil }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("0x"), let value = UInt16(lower.dropFirst(2), radix: 16) {
            return value <= maxCode ? value : nil
        }
        let upper = trimmed.uppercased()
        if let code = table.codes[upper] { return code }
        return table.codes["KEY_" + upper] ?? table.codes["BTN_" + upper]
    }

    /// The kernel's name for a key code (`KEY_POWER` for 116), or the number if it has none.
    public static func name(for code: UInt16) -> String {
        table.names[code] ?? String(code)
    }

    /// `KEY_MAX` of the kernel headers: the highest key code.
    public static let maxCode: UInt16 = 0x2ff

    private static let table = KeyTable(text: keyCodeTableText)
}

/// ``keyCodeTableText`` parsed once into lookups both ways. The last non-alias name wins for a code
/// (`BTN_LEFT` over `BTN_MOUSE`), as in libevdev.
private struct KeyTable: Sendable {
    var codes: [String: UInt16] = [:]
    var names: [UInt16: String] = [:]

    init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let code = UInt16(fields[1]) else { continue }
            let name = String(fields[0])
            codes[name] = code
            if fields.count == 2 { names[code] = name }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
