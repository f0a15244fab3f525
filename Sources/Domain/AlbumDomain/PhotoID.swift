/// A photo's identity as bytes (for the folder repository: the file path exactly as `readdir`
/// and inotify gave it), hashed, compared and ordered by those bytes.
///
/// File names on Linux are bytes, not text: a name need not be UTF-8, and two names that differ
/// only in Unicode normalisation (NFC and NFD "café") are two files. Swift's `String` would drop
/// the first and merge the second (its equality is canonical equivalence), so ids never pass
/// through `String`.
public struct PhotoID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The bytes, without a terminating zero.
    public let bytes: [UInt8]

    /// An id of raw bytes.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// An id of a string's UTF-8 bytes (tests, and paths that are text).
    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    /// An id of a literal's UTF-8 bytes.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Byte order (`strcmp`'s), so a sorted list is the same on every run and every locale.
    public static func < (lhs: PhotoID, rhs: PhotoID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// The id for a log line or a report: valid UTF-8 as it is, except that control characters
    /// (C0, DEL, C1, the line and paragraph separators, the bidirectional controls such as
    /// U+202E) and the backslash are escaped (`\n`, `\x1B`, `\u{2028}`, `\u{202E}`, `\\`), and bytes that are not UTF-8 appear as `\xFF`. So a name can
    /// never split or forge a log line, and two different ids never print the same.
    public var description: String { Self.escaped(bytes) }

    /// `bytes` escaped as ``description`` describes.
    public static func escaped(_ bytes: some Collection<UInt8>) -> String {
        let raw = Array(bytes)
        var text = ""
        var start = 0
        while start < raw.count {
            // One scalar at a time, so a bad byte costs only itself.
            var rest = raw[start...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&rest) {
                text += escaped(scalar)
                start += UTF8.width(scalar)
            } else {
                text += "\\x" + hex(raw[start])
                start += 1
            }
        }
        return text
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00..<0x20, 0x7F: return "\\x" + hex(UInt8(scalar.value))
        case 0x80..<0xA0, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: return String(scalar)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
