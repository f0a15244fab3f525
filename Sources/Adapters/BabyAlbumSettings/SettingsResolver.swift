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
/// Each file line is parsed as `--key=value` together with the lines accepted so far and the
/// command line, through the command's own `ArgumentParser` definition (types, ranges and
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
        var accepted: [(entry: SettingsEntry, words: [String])] = []
        var reasons: [Int: String] = [:]
        // Until nothing more is accepted: a later line (photos) may make an earlier one valid.
        var progress = true
        while progress {
            progress = false
            var stillPending: [SettingsEntry] = []
            for entry in pending {
                let before = accepted.flatMap(\.words)
                switch check(type, entry: entry, before: before, commandLine: commandLine) {
                case .success(let words):
                    accepted.append((entry, words))
                    progress = true
                case .failure(let reason):
                    reasons[entry.line] = reason
                    stillPending.append(entry)
                }
            }
            pending = stillPending
        }
        for entry in pending {
            problems.append(
                SettingsProblem(file: file!.path, line: entry.line, reason: reasons[entry.line] ?? "not accepted"))
        }
        accepted.sort { $0.entry.line < $1.entry.line }
        let arguments = accepted.flatMap(\.words) + commandLine
        let command = try type.parse(arguments)
        return SettingsResolution(
            command: command, arguments: arguments, accepted: accepted.map(\.entry),
            problems: problems.sorted { $0.line < $1.line }, commandLineKeys: commandLineKeys)
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

    private enum Check {
        case success([String])
        case failure(String)
    }

    private static func check<Command: ParsableCommand>(
        _ type: Command.Type, entry: SettingsEntry, before: [String], commandLine: [String]
    ) -> Check {
        let option = ["--\(entry.key)=\(entry.value)"]
        var firstError: (any Error)?
        do {
            _ = try type.parse(before + option + commandLine)
            return .success(option)
        } catch {
            firstError = error
        }
        // A flag: `statistics = yes` is `--statistics`, `= no` leaves it out.
        let word = entry.value.lowercased()
        if trueWords.contains(word) || falseWords.contains(word) {
            let flag = ["--\(entry.key)"]
            if (try? type.parse(before + flag + commandLine)) != nil {
                return .success(trueWords.contains(word) ? flag : [])
            }
        }
        return .failure(reason(type.message(for: firstError!), key: entry.key))
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
