import ArgumentParser
import LinuxInterfaces

/// Merges a ``SettingsFile`` with the command line: file first, command line last.
///
/// Its cost is bounded whatever the file holds (a 64 KB hostile file takes milliseconds): keys
/// the command does not have, and every line of a one-value key but its last, are left out
/// without a parse; a repeatable key takes at most ``maxLinesPerKey`` lines. The lines left are
/// parsed together, as options (`--key=value`, a flag's `yes` as `--key`) before the command
/// line, through the command's own `ArgumentParser` definition (types, ranges and `validate()`),
/// so the file accepts exactly what the command line accepts. When that fails, each line is
/// parsed alone to find the lines at fault, then the lines that need another one (a caption
/// needs a name) are parsed with those accepted. A line that fails is left out with the
/// parser's reason (never a secret's value); only a command line that fails on its own terms is
/// an error.
public enum SettingsResolver {
    /// Words a flag's value may be.
    static let trueWords: Set<String> = ["true", "yes", "on", "1"]
    static let falseWords: Set<String> = ["false", "no", "off", "0"]
    /// The most lines a repeatable key takes (photo folders, exit keys, family devices).
    public static let maxLinesPerKey = 16
    /// The most refused lines given the parser's own reason (each costs a help text's making);
    /// the rest name their key alone.
    public static let maxExplainedLines = 8

    /// Resolves `file` (may be `nil`: no file) and `commandLine` for `Command`. Keys in
    /// `ignoredKeys` are problems ("cannot be set in the file"). Throws the parser's error when
    /// the command line itself is broken.
    public static func resolve<Command: ParsableCommand>(
        _ type: Command.Type, file: SettingsFile?, commandLine: [String], ignoring ignoredKeys: Set<String> = []
    ) throws -> SettingsResolution<Command> {
        let commandLineKeys = longNames(in: commandLine)
        let keys = Dictionary(SettingsCatalog.keys(of: type).map { ($0.name, $0) }) { first, _ in first }
        var screening = Screening(path: file?.path ?? "", problems: file?.problems ?? [])
        screening.screen(
            file?.entries ?? [], keys: keys, skipping: commandLineKeys, ignoring: ignoredKeys)
        let flags = Set(keys.values.filter(\.isFlag).map(\.name))
        let words = { (entry: SettingsEntry) in optionWords(for: entry, flags: flags) }
        var problems = screening.problems
        // The lines at once first: a file the command accepts costs one parse.
        let wholeFile = screening.candidates.flatMap(words) + commandLine
        if let command = try? type.parse(wholeFile) {
            return SettingsResolution(
                command: command, accepted: screening.candidates,
                problems: problems.sorted { $0.line < $1.line }, commandLineKeys: commandLineKeys)
        }
        let byLine = lineByLine(
            type, screening.candidates, valueTypes: SettingValueTypes.of(type), words: words, commandLine: commandLine)
        for (index, (entry, knownError)) in byLine.refused.sorted(by: { $0.0.line < $1.0.line }).enumerated() {
            // A line its value's type refused had no parse: the first few get one for its reason.
            let error =
                index < maxExplainedLines
                ? knownError ?? check(type, entry, words: words(entry), before: [], commandLine: commandLine) : nil
            let reason =
                error.map { explanation(type, of: $0, for: entry) }
                ?? "the value of '\(entry.key)' is not accepted (fix the lines before it first; babyalbum --help)"
            problems.append(SettingsProblem(file: file!.path, line: entry.line, reason: reason, key: entry.key))
        }
        let accepted = byLine.accepted.sorted { $0.line < $1.line }
        let arguments = accepted.flatMap(words) + commandLine
        return SettingsResolution(
            command: try type.parse(arguments), accepted: accepted,
            problems: problems.sorted { $0.line < $1.line }, commandLineKeys: commandLineKeys)
    }

    /// The lines worth a parse, and the problems of those that are not: no parser is needed to
    /// see an unknown key, a line a later one overrides, or one line too many.
    private struct Screening {
        let path: String
        var problems: [SettingsProblem]
        var candidates: [SettingsEntry] = []

        mutating func screen(
            _ entries: [SettingsEntry], keys: [String: SettingKey], skipping skipped: Set<String>,
            ignoring ignored: Set<String>
        ) {
            var lastLine: [String: Int] = [:]
            for entry in entries { lastLine[entry.key] = entry.line }
            var taken: [String: Int] = [:]
            for entry in entries where !skipped.contains(entry.key) {
                guard !ignored.contains(entry.key), entry.key != "help" else {
                    refuse(entry, "'\(entry.key)' cannot be set in the file")
                    continue
                }
                guard let key = keys[entry.key] else {
                    refuse(entry, "'\(entry.key.quotedForMessage(limit: 40))' is not a setting")
                    continue
                }
                if !key.isRepeating, let last = lastLine[entry.key], last != entry.line {
                    refuse(entry, "'\(entry.key)' is set again on line \(last), which wins")
                    continue
                }
                if key.isRepeating, taken[entry.key, default: 0] >= maxLinesPerKey {
                    refuse(entry, "more than \(maxLinesPerKey) '\(entry.key)' lines: this one is left out")
                    continue
                }
                taken[entry.key, default: 0] += 1
                candidates.append(entry)
            }
        }

        private mutating func refuse(_ entry: SettingsEntry, _ reason: String) {
            problems.append(SettingsProblem(file: path, line: entry.line, reason: reason, key: entry.key))
        }
    }

    /// The lines that the command takes: those it takes alone (all of them, or, when some clash,
    /// one at a time in file order), then, in up to three rounds, those that need lines accepted
    /// before them. A line whose value its option's type refuses is refused without a parse (no
    /// other line can make it right); the others cost at most a few parses each, of at most all the
    /// lines' words. A refused line's error is `nil` when no parse was made.
    private static func lineByLine<Command: ParsableCommand>(
        _ type: Command.Type, _ entries: [SettingsEntry], valueTypes: [String: any ExpressibleByArgument.Type],
        words: (SettingsEntry) -> [String], commandLine: [String]
    ) -> (accepted: [SettingsEntry], refused: [(SettingsEntry, (any Error)?)]) {
        var alone: [SettingsEntry] = []
        var refusedByType: [(SettingsEntry, (any Error)?)] = []
        var refused: [(SettingsEntry, any Error)] = []
        for entry in entries {
            if let valueType = valueTypes[entry.key], valueType.init(argument: entry.value) == nil {
                refusedByType.append((entry, nil))
                continue
            }
            switch check(type, entry, words: words(entry), before: [], commandLine: commandLine) {
            case nil: alone.append(entry)
            case let error?: refused.append((entry, error))
            }
        }
        var accepted: [SettingsEntry] = []
        if (try? type.parse(alone.flatMap(words) + commandLine)) != nil {
            accepted = alone
        } else {
            for entry in alone {
                let before = accepted.flatMap(words)
                switch check(type, entry, words: words(entry), before: before, commandLine: commandLine) {
                case nil: accepted.append(entry)
                case let error?: refused.append((entry, error))
                }
            }
        }
        // A retry needs lines to lean on: with none accepted, a refused line would fail again.
        for _ in 0..<3 where !refused.isEmpty && !accepted.isEmpty {
            var stillRefused: [(SettingsEntry, any Error)] = []
            for (entry, _) in refused {
                let before = accepted.flatMap(words)
                switch check(type, entry, words: words(entry), before: before, commandLine: commandLine) {
                case nil: accepted.append(entry)
                case let error?: stillRefused.append((entry, error))
                }
            }
            if stillRefused.count == refused.count { break }
            refused = stillRefused
        }
        return (accepted, refused.map { ($0.0, $0.1) } + refusedByType)
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

    /// A line as the command's words: `--key=value`; for a flag, `yes` is `--key` and `no` is
    /// nothing (`statistics = yes` is `--statistics`).
    static func optionWords(for entry: SettingsEntry, flags: Set<String>) -> [String] {
        let word = entry.value.lowercased()
        guard flags.contains(entry.key), trueWords.contains(word) || falseWords.contains(word) else {
            return ["--\(entry.key)=\(entry.value)"]
        }
        return trueWords.contains(word) ? ["--\(entry.key)"] : []
    }

    /// `nil` when the command takes `entry`'s words after `before` and before the command line;
    /// else the parser's error.
    private static func check<Command: ParsableCommand>(
        _ type: Command.Type, _ entry: SettingsEntry, words: [String], before: [String], commandLine: [String]
    ) -> (any Error)? {
        guard !words.isEmpty else { return nil }
        do {
            _ = try type.parse(before + words + commandLine)
            return nil
        } catch {
            return error
        }
    }

    /// Why the parser refused `entry`, without the value when the key is a secret.
    private static func explanation<Command: ParsableCommand>(
        _ type: Command.Type, of error: any Error, for entry: SettingsEntry
    ) -> String {
        let reason = reason(type.message(for: error), key: entry.key)
        guard
            SettingInEffect.isSecret(entry.key)
                || SettingsFile.looksLikeWiFi(entry.key) && entry.key != "wifi-name",
            !entry.value.isEmpty
        else { return reason }
        return reason.replacing(entry.value, with: "(hidden)")
            .replacing(entry.value.escapingControlCharacters, with: "(hidden)")
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
