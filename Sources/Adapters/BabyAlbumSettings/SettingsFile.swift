import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The frame's settings file: `key = value` lines, where a key is a long option name of
/// `babyalbum` (`interval = 15`), repeated for options that repeat, with `#` comments.
///
/// Files edited on Windows work: CRLF line endings, a UTF-8 byte-order mark, trailing spaces,
/// keys in any case. Lines that are not `key = value` are reported, never fatal.
///
/// Against a damaged or hostile file: a file over ``maxFileBytes`` is left out whole (one
/// problem), a line over ``maxLineBytes`` or with a NUL character is left out, only LF, CR and
/// CRLF end a line (a vertical tab or U+2028 does not, so line numbers are an editor's), and
/// no line is ever quoted in a reason (it may hold a password): a reason names the line
/// number and, at most, a setting's name.
///
/// A value may be quoted (`"..."` or `'...'`): inside quotes `#` is kept; outside, a `#` after a
/// space starts a comment. Files saved as UTF-16 (Notepad's "Unicode") are read too.
public struct SettingsFile: Sendable, Equatable {
    /// Where it was read from.
    public var path: String
    /// The `key = value` lines, in file order.
    public var entries: [SettingsEntry]
    /// Lines that are not `key = value`.
    public var problems: [SettingsProblem]
    /// How many lines the file has.
    public var lineCount = 0

    /// On a Raspberry Pi: on the FAT boot partition, which any PC can edit.
    public static let raspberryPiPath = "/boot/firmware/babyalbum.txt"
    /// Elsewhere.
    public static let systemPath = "/etc/babyalbum/babyalbum.conf"
    /// The largest settings file read: 64 KB, hundreds of times a real one.
    public static let maxFileBytes = 64 * 1024
    /// The longest line read: 4 KB.
    public static let maxLineBytes = 4 * 1024

    /// The file the frame reads when `--settings` is not given: the Raspberry Pi's when its boot
    /// partition is there (`/boot/firmware/config.txt`), else ``systemPath``.
    public static func defaultPath(fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> String
    {
        if fileExists(raspberryPiPath) || fileExists("/boot/firmware/config.txt") { return raspberryPiPath }
        return systemPath
    }

    /// Parses `contents`, read from `path`.
    public init(path: String, contents: String) {
        self.path = path
        var entries: [SettingsEntry] = []
        var problems: [SettingsProblem] = []
        var text = Substring(contents)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        let lines = Self.lines(of: text)
        lineCount = lines.count
        for (index, rawLine) in lines.enumerated() {
            switch Self.check(line: rawLine) ?? Self.parse(line: rawLine) {
            case .blank: continue
            case .entry(let key, let value): entries.append(SettingsEntry(key: key, value: value, line: index + 1))
            case .malformed(let reason, let key):
                problems.append(SettingsProblem(file: path, line: index + 1, reason: reason, key: key))
            }
        }
        self.entries = entries
        self.problems = problems
    }

    /// Reads `path`: `nil` when there is no such file; a file that cannot be read or is not
    /// text is one problem on line 0.
    public static func read(_ path: String) -> SettingsFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // At most one byte over the limit is read, whatever the file's size (or growth).
        guard let data = leadingBytes(of: path, limit: maxFileBytes + 1) else {
            return SettingsFile(path: path, problem: "the file cannot be read")
        }
        if data.count > maxFileBytes {
            return SettingsFile(
                path: path,
                problem: "the file is over \(maxFileBytes / 1024) KB, far larger than a settings file; it is left out"
                    + " whole (all settings are the command line's or the defaults)")
        }
        if let text = decodedUTF16(data) { return SettingsFile(path: path, contents: text) }
        guard let text = String(validating: data, as: UTF8.self) else {
            // Latin-1 from an old editor: still readable for ASCII keys and values.
            var file = SettingsFile(path: path, contents: String(decoding: data, as: UTF8.self))
            file.problems.insert(
                SettingsProblem(file: path, line: 0, reason: "the file is not UTF-8 text; save it as UTF-8"), at: 0)
            return file
        }
        return SettingsFile(path: path, contents: text)
    }

    /// `bytes` as UTF-16 text, when they start with a UTF-16 byte-order mark (Notepad's
    /// "Unicode" and "Unicode big endian"), or hold a zero byte in every other place of their
    /// first line (UTF-16 without a mark); `nil` otherwise or when not valid UTF-16.
    static func decodedUTF16(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2 else { return nil }
        var bigEndian: Bool
        var start = 0
        if bytes[0] == 0xFF, bytes[1] == 0xFE {
            bigEndian = false
            start = 2
        } else if bytes[0] == 0xFE, bytes[1] == 0xFF {
            bigEndian = true
            start = 2
        } else if bytes.count % 2 == 0, bytes[1] == 0, bytes[0] != 0, bytes.count >= 4, bytes[3] == 0 {
            bigEndian = false
        } else if bytes.count % 2 == 0, bytes[0] == 0, bytes[1] != 0, bytes.count >= 4, bytes[2] == 0 {
            bigEndian = true
        } else {
            return nil
        }
        guard (bytes.count - start) % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var index = start
        while index + 1 < bytes.count {
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        var text = ""
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return text
    }

    /// The first `limit` bytes of `path` (all of it when shorter); `nil` when it cannot be opened
    /// or read (a folder, no permission).
    static func leadingBytes(of path: String, limit: Int) -> [UInt8]? {
        guard let file = try? FileDescriptor(opening: path) else { return nil }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: limit, alignment: 1)
        defer { bytes.deallocate() }
        var count = 0
        while count < limit {
            guard let got = try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[count...])) else {
                return nil
            }
            if got == 0 { break }
            count += got
        }
        return Array(bytes[..<count])
    }

    /// A file left out whole, with one problem on line 0.
    private init(path: String, problem: String) {
        self.init(path: path, contents: "")
        problems = [SettingsProblem(file: path, line: 0, reason: problem)]
    }

    private enum Line {
        case blank
        case entry(key: String, value: String)
        case malformed(String, key: String?)
    }

    /// The file as a program that must not see its secrets reads it (the card's Syncthing): the
    /// lines of `keys` as they were parsed, every other line a bare `#`, so that line numbers stay
    /// the file's. A Wi-Fi password, a malformed line and any other setting are never in it.
    public func keeping(only keys: Set<String>) -> String {
        var lines = [String](repeating: "#", count: lineCount)
        for entry in entries where keys.contains(entry.key) && entry.line <= lineCount {
            let quote = entry.value.contains("\"") ? "'" : "\""
            lines[entry.line - 1] = "\(entry.key) = \(quote)\(entry.value)\(quote)"
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of `text`: CRLF, LF and CR each end one line; nothing else does. Split on
    /// Unicode scalars, not characters, so that a 64 KB file costs well under a millisecond.
    static func lines(of text: Substring) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                scalars.formIndex(after: &index)
                continue
            }
            lines.append(text[start..<index])
            scalars.formIndex(after: &index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { scalars.formIndex(after: &index) }
            start = index
        }
        lines.append(text[start..<scalars.endIndex])
        return lines
    }

    /// Spaces and tabs, a Windows line end's carriage return, a byte-order mark and other
    /// horizontal white space (not the vertical tab, form feed or line separators).
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" || scalar == "\r" }
        if scalar == "\u{FEFF}" { return true }
        return scalar.properties.isWhitespace && scalar != "\u{85}" && scalar != "\u{2028}" && scalar != "\u{2029}"
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Where a comment after a value starts: a '#' after a space or tab.
    private static func commentStart(in value: some StringProtocol) -> String.Index? {
        var previous: Unicode.Scalar?
        let scalars = value.unicodeScalars
        for index in scalars.indices {
            if scalars[index] == "#", let previous, isSpace(previous) { return index }
            previous = scalars[index]
        }
        return nil
    }

    /// The value after `=`: a quoted value is what is inside its quotes (a `#` inside stays),
    /// and only a comment may follow it; else the text up to a comment.
    private static func value(after text: String) -> Result<String, ValueError> {
        let text = trimmed(text)
        if let quote = text.first, quote == "\"" || quote == "'" {
            let inside = text.dropFirst()
            guard let end = inside.firstIndex(of: quote) else { return .failure(.unclosedQuote(quote)) }
            let rest = trimmed(inside[inside.index(after: end)...])  // `end` is an ASCII quote
            guard rest.isEmpty || rest.hasPrefix("#") else { return .failure(.textAfterQuote(quote)) }
            return .success(String(inside[..<end]))
        }
        guard let comment = commentStart(in: text) else { return .success(text) }
        return .success(trimmed(text[..<comment]))
    }

    private enum ValueError: Error {
        case unclosedQuote(Character)
        case textAfterQuote(Character)

        var reason: String {
            switch self {
            case .unclosedQuote(let quote): "the value opens a quote (\(quote)) that is not closed on the line"
            case .textAfterQuote(let quote):
                "there is text after the value's closing quote (\(quote)); only a comment (# ...) may follow it"
            }
        }
    }

    /// The setting a line seems to name: its text before `=` or `:` (or its first word),
    /// lowercased, spaces and underscores as dashes; `nil` when that is not a name.
    static func apparentKey(of line: String) -> String? {
        let end = line.unicodeScalars.firstIndex { $0 == "=" || $0 == ":" } ?? line.endIndex
        guard line.utf8.distance(from: line.startIndex, to: end) <= 80 else { return nil }
        var key = trimmed(line[..<end]).lowercased()
        while key.hasPrefix("-") { key.removeFirst() }
        let words = key.split { $0 == " " || $0 == "\t" || $0 == "_" }
        key = words.joined(separator: "-")
        guard !key.isEmpty, key.count <= 40,
            key.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" })
        else { return nil }
        return key
    }

    /// Whether a setting's name (as ``apparentKey(of:)`` gives it) is about the Wi-Fi or a
    /// password: `wifi-pasword`, `wlan-key`, `passwort`, `psk`, `ssid`.
    public static func looksLikeWiFi(_ key: String) -> Bool {
        let letters = Array(key.utf8.lazy.filter { (0x61...0x7A).contains($0 | 0x20) }.map { $0 | 0x20 })
        return wifiWords.contains { word in
            word.count <= letters.count
                && (0...(letters.count - word.count)).contains { letters[$0..<$0 + word.count].elementsEqual(word) }
        }
    }

    private static let wifiWords = ["wifi", "wlan", "wpa", "ssid", "pass", "psk", "kennwort", "secret", "wireless"]
        .map { Array($0.utf8) }

    /// Whether `key` is a setting's name: letters, digits and dashes.
    private static func isKeyName(_ key: String) -> Bool {
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            return !key.isEmpty
                && key.utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
        return !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    /// A line too long, or holding NUL, is left out before it is parsed or quoted.
    private static func check(line rawLine: Substring) -> Line? {
        if rawLine.utf8.count > maxLineBytes {
            return .malformed("the line is longer than \(maxLineBytes / 1024) KB", key: nil)
        }
        if rawLine.unicodeScalars.contains("\0") {
            return .malformed("the line holds a NUL character (a damaged file?)", key: nil)
        }
        return nil
    }

    private static func parse(line rawLine: Substring) -> Line {
        let line = trimmed(rawLine)
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { return .blank }
        guard let equals = line.unicodeScalars.firstIndex(of: "=") else {
            let colon = line.unicodeScalars.contains(":") ? " (write '=' where it has ':')" : ""
            return .malformed("the line is not 'key = value'\(colon)", key: apparentKey(of: line))
        }
        var key = trimmed(line[..<equals]).lowercased()
        while key.hasPrefix("-") { key.removeFirst() }
        key = String(String.UnicodeScalarView(key.unicodeScalars.map { $0 == "_" ? "-" : $0 }))
        guard isKeyName(key) else {
            return .malformed(
                "the line has no setting name before '=' (a name is letters, digits and dashes, no spaces)",
                key: apparentKey(of: line))
        }
        switch value(after: String(line[line.index(after: equals)...])) {
        case .success(let value): return .entry(key: key, value: value)
        case .failure(let error): return .malformed(error.reason, key: key)
        }
    }
}
