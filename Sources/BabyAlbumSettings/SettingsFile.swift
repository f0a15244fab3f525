#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif
/// One `key = value` line of a settings file.
public struct SettingsEntry: Sendable, Equatable {
    /// The option's long name, lowercased, without leading dashes (`interval`).
    public var key: String
    /// The value, trimmed, without surrounding quotes.
    public var value: String
    /// The line number in the file, from 1.
    public var line: Int

    /// Creates an entry.
    public init(key: String, value: String, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}

/// A line of a settings file that was left out, and why.
public struct SettingsProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line number, from 1.
    public var line: Int
    /// Why the line was left out, in words a parent can act on.
    public var reason: String

    /// Creates a problem.
    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(file) line \(line): \(reason); this line is left out" }
}

/// The frame's settings file: `key = value` lines, where a key is a long option name of
/// `babyalbum` (`interval = 15`), repeated for options that repeat, with `#` comments.
///
/// Files edited on Windows work: CRLF line endings, a UTF-8 byte-order mark, trailing spaces,
/// keys in any case. Lines that are not `key = value` are reported, never fatal.
public struct SettingsFile: Sendable, Equatable {
    /// Where it was read from.
    public var path: String
    /// The `key = value` lines, in file order.
    public var entries: [SettingsEntry]
    /// Lines that are not `key = value`.
    public var problems: [SettingsProblem]

    /// On a Raspberry Pi: on the FAT boot partition, which any PC can edit.
    public static let raspberryPiPath = "/boot/firmware/babyalbum.txt"
    /// Elsewhere.
    public static let systemPath = "/etc/babyalbum/babyalbum.conf"

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
        // "\r\n" is one Character in Swift, so CRLF, LF and CR each end one line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            switch Self.parse(line: rawLine) {
            case .blank: continue
            case .entry(let key, let value): entries.append(SettingsEntry(key: key, value: value, line: index + 1))
            case .malformed(let reason): problems.append(SettingsProblem(file: path, line: index + 1, reason: reason))
            }
        }
        self.entries = entries
        self.problems = problems
    }

    /// Reads `path`: `nil` when there is no such file; a file that cannot be read or is not
    /// text is one problem on line 0.
    public static func read(_ path: String) -> SettingsFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            var file = SettingsFile(path: path, contents: "")
            file.problems = [SettingsProblem(file: path, line: 0, reason: "the file cannot be read")]
            return file
        }
        guard let text = String(data: data, encoding: .utf8) else {
            // Latin-1 from an old editor: still readable for ASCII keys and values.
            var file = SettingsFile(path: path, contents: String(decoding: data, as: UTF8.self))
            file.problems.insert(
                SettingsProblem(file: path, line: 0, reason: "the file is not UTF-8 text; save it as UTF-8"), at: 0)
            return file
        }
        return SettingsFile(path: path, contents: text)
    }

    private enum Line {
        case blank
        case entry(key: String, value: String)
        case malformed(String)
    }

    /// Spaces and tabs, a Windows line end's carriage return and a byte-order mark.
    private static func isSpace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\r" || character == "\u{FEFF}"
            || (character.isWhitespace && !character.isNewline)
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// Where a comment after a value starts: a '#' after a space or tab.
    private static func commentStart(in value: String) -> String.Index? {
        var previous: Character?
        for index in value.indices {
            if value[index] == "#", let previous, isSpace(previous) { return value.index(before: index) }
            previous = value[index]
        }
        return nil
    }

    private static func parse(line rawLine: Substring) -> Line {
        let line = trimmed(rawLine)
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { return .blank }
        guard let equals = line.firstIndex(of: "=") else {
            return .malformed("'\(line)' is not 'key = value'")
        }
        var key = trimmed(line[..<equals]).lowercased()
        while key.hasPrefix("-") { key.removeFirst() }
        key = String(key.map { $0 == "_" ? "-" : $0 })
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            return .malformed("'\(line)' has no setting name before '='")
        }
        var value = trimmed(line[line.index(after: equals)...])
        // A comment after the value starts with " #" (a '#' inside a value stays).
        if let comment = commentStart(in: value) {
            value = trimmed(value[..<comment])
        }
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = String(value.dropFirst().dropLast())
        }
        return .entry(key: key, value: value)
    }
}
