import ArgumentParser

/// Where a setting in effect came from.
public enum SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    /// Nobody set it.
    case defaultValue
    /// A line of the settings file.
    case file(path: String, line: Int)
    /// The command line (for the service: `/etc/default/babyalbum`).
    case commandLine

    public var description: String {
        switch self {
        case .defaultValue: "default"
        case .file(let path, let line): "\(path) line \(line)"
        case .commandLine: "command line"
        }
    }
}

/// The settings file merged with the command line, each file line checked by the command's own
/// argument parser.
public struct SettingsResolution<Command: ParsableCommand> {
    /// The command, parsed from ``arguments``.
    public var command: Command
    /// The accepted file lines as options, then the command line (which wins).
    public var arguments: [String]
    /// The file lines in effect.
    public var accepted: [SettingsEntry]
    /// The file lines left out, and why.
    public var problems: [SettingsProblem]
    /// The long option names given on the command line.
    public var commandLineKeys: Set<String>
}

/// Merges a ``SettingsFile`` with the command line: file first, command line last.
///
/// The whole file is parsed at once as options (`--key=value`, a flag's `yes` as `--key`) with the
/// command line; when that fails, each line is parsed together with the lines accepted so far and
/// the command line, through the command's own `ArgumentParser` definition (types, ranges and
/// `validate()`), so the file accepts exactly what the command line accepts as options change.
/// A line that fails is left out with the parser's reason; only a command line that fails on its
/// own terms is an error.
public enum SettingsResolver {
    /// Words a flag's value may be.
    static let trueWords: Set<String> = ["true", "yes", "on", "1"]
    static let falseWords: Set<String> = ["false", "no", "off", "0"]

    /// Resolves `file` (may be `nil`: no file) and `commandLine` for `Command`. Throws the
    /// parser's error when the command line itself is broken.
    public static func resolve<Command: ParsableCommand>(
        _ type: Command.Type, file: SettingsFile?, commandLine: [String], ignoring ignoredKeys: Set<String> = []
    ) throws -> SettingsResolution<Command> {
        let commandLineKeys = longNames(in: commandLine)
        var problems = file?.problems ?? []
        var pending: [SettingsEntry] = []
        for entry in file?.entries ?? [] where !commandLineKeys.contains(entry.key) {
            if ignoredKeys.contains(entry.key) || entry.key == "help" {
                problems.append(
                    SettingsProblem(
                        file: file!.path, line: entry.line, reason: "'\(entry.key)' cannot be set in the file"))
            } else {
                pending.append(entry)
            }
        }
        let flags = Set(SettingsCatalog.keys(of: type).filter(\.isFlag).map(\.name))
        let words = { (entry: SettingsEntry) in optionWords(for: entry, flags: flags) }
        // The whole file at once first: a file the command accepts costs one parse, not one a line.
        let wholeFile = pending.flatMap(words) + commandLine
        if let command = try? type.parse(wholeFile) {
            return SettingsResolution(
                command: command, arguments: wholeFile, accepted: pending,
                problems: problems.sorted { $0.line < $1.line }, commandLineKeys: commandLineKeys)
        }
        var byLine = lineByLine(type, pending, words: words, commandLine: commandLine)
        for (entry, reason) in byLine.refused {
            problems.append(SettingsProblem(file: file!.path, line: entry.line, reason: reason))
        }
        byLine.accepted.sort { $0.entry.line < $1.entry.line }
        let arguments = byLine.accepted.flatMap(\.words) + commandLine
        // The last line's check parsed these very words unless a later round took a line.
        let command =
            try byLine.lastParse.flatMap { $0.arguments == arguments ? $0.command : nil } ?? type.parse(arguments)
        return SettingsResolution(
            command: command, arguments: arguments, accepted: byLine.accepted.map(\.entry),
            problems: problems.sorted { $0.line < $1.line }, commandLineKeys: commandLineKeys)
    }

    /// Each line parsed with the lines accepted so far and the command line, in rounds until a
    /// round accepts nothing more: a later line (photos) may make an earlier one valid.
    private static func lineByLine<Command: ParsableCommand>(
        _ type: Command.Type, _ entries: [SettingsEntry], words: (SettingsEntry) -> [String], commandLine: [String]
    ) -> (
        accepted: [(entry: SettingsEntry, words: [String])], refused: [(SettingsEntry, String)],
        lastParse: (arguments: [String], command: Command)?
    ) {
        var accepted: [(entry: SettingsEntry, words: [String])] = []
        var refused: [(SettingsEntry, String)] = entries.map { ($0, "not accepted") }
        var lastParse: (arguments: [String], command: Command)?
        var progress = true
        while progress {
            progress = false
            var stillRefused: [(SettingsEntry, String)] = []
            for (entry, _) in refused {
                let before = accepted.flatMap(\.words)
                switch check(type, words: words(entry), key: entry.key, before: before, commandLine: commandLine) {
                case .success(let words, let parse):
                    accepted.append((entry, words))
                    lastParse = parse ?? lastParse
                    progress = true
                case .failure(let reason):
                    stillRefused.append((entry, reason))
                }
            }
            refused = stillRefused
        }
        return (accepted, refused, lastParse)
    }

    /// The long option names in `arguments` (`--name` and `--name=value`), up to `--`.
    public static func longNames(in arguments: [String]) -> Set<String> {
        var names: Set<String> = []
        for word in arguments {
            if word == "--" { break }
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            names.insert(String(word.dropFirst(2).prefix { $0 != "=" }))
        }
        return names
    }

    private enum Check<Command> {
        /// The line's words, and the parse that took them (none for a flag set to no).
        case success([String], (arguments: [String], command: Command)?)
        case failure(String)
    }

    /// A line as the command's words: `--key=value`; for a flag, `yes` is `--key` and `no` is
    /// nothing (`statistics = yes` is `--statistics`).
    static func optionWords(for entry: SettingsEntry, flags: Set<String>) -> [String] {
        let word = entry.value.lowercased()
        guard flags.contains(entry.key), trueWords.contains(word) || falseWords.contains(word) else {
            return ["--\(entry.key)=\(entry.value)"]
        }
        return trueWords.contains(word) ? ["--\(entry.key)"] : []
    }

    private static func check<Command: ParsableCommand>(
        _ type: Command.Type, words: [String], key: String, before: [String], commandLine: [String]
    ) -> Check<Command> {
        guard !words.isEmpty else { return .success([], nil) }
        let arguments = before + words + commandLine
        do {
            return .success(words, (arguments, try type.parse(arguments)))
        } catch {
            return .failure(reason(type.message(for: error), key: key))
        }
    }

    /// The parser's message, shorter, and in the file's terms.
    static func reason(_ message: String, key: String) -> String {
        var text = message.split(separator: "\n").first.map(String.init) ?? message
        if text.hasPrefix("Error: ") { text.removeFirst(7) }
        if text.hasPrefix("Unknown option") || text.hasPrefix("Unexpected argument") {
            return "'\(key)' is not a setting"
        }
        return text.escapingControlCharacters
    }
}
