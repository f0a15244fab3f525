import ArgumentParser
import LinuxInterfaces

/// One setting as the frame runs with it, and where it came from.
public struct SettingInEffect: Sendable, Equatable, Codable {
    /// The key (`interval`).
    public var key: String
    /// Its values (several for a repeated key; none for an option without a default).
    public var values: [String]
    /// `default`, `FILE line N` or `command line`.
    public var origin: String
}

/// What `doctor` and `babyalbum settings` show about the settings.
public struct SettingsReport: Sendable, Equatable, Codable {
    /// The settings file read (or looked for).
    public var file: String
    /// Whether it exists.
    public var fileFound: Bool
    /// Every key, in the command's order.
    public var settings: [SettingInEffect]
    /// File lines left out, and why.
    public var problems: [SettingsProblem]

    /// The most problems named one by one; the rest are counted in one more.
    public static let maxProblems = 40

    /// Builds the report of `resolution`, over the keys of `keys`.
    public init<Command: ParsableCommand>(
        file: String, fileFound: Bool, resolution: SettingsResolution<Command>, keys: [SettingKey],
        commandLine: [String]
    ) {
        self.file = file
        self.fileFound = fileFound
        let sorted = resolution.problems.sorted { $0.line < $1.line }
        self.problems = sorted.prefix(Self.maxProblems).map { Self.withSuggestion($0, keys: keys) }
        if sorted.count > Self.maxProblems {
            let rest = sorted[Self.maxProblems...]
            self.problems.append(
                SettingsProblem(
                    file: file, line: rest.first!.line,
                    reason: "and \(rest.count) more lines after it are left out (fix the lines above first)"))
        }
        self.settings = Self.settings(keys: keys, resolution: resolution, commandLine: commandLine, file: file)
            .map { $0.masked }
    }

    static func settings<Command: ParsableCommand>(
        keys: [SettingKey], resolution: SettingsResolution<Command>, commandLine: [String], file: String
    ) -> [SettingInEffect] {
        keys.map { key in
            let given = Self.values(of: key, in: commandLine)
            if !given.isEmpty || resolution.commandLineKeys.contains(key.name) {
                return SettingInEffect(key: key.name, values: given, origin: SettingOrigin.commandLine.description)
            }
            let lines = resolution.accepted.filter { $0.key == key.name }
            if let last = lines.last {
                let values = key.isRepeating ? lines.map(\.value) : [last.value]
                let origin =
                    key.isRepeating && lines.count > 1
                    ? "\(file) lines \(lines.map { String($0.line) }.joined(separator: ", "))"
                    : SettingOrigin.file(path: file, line: last.line).description
                return SettingInEffect(key: key.name, values: values, origin: origin)
            }
            return SettingInEffect(
                key: key.name, values: key.defaultValue.map { [$0] } ?? [],
                origin: SettingOrigin.defaultValue.description)
        }
    }

    /// `problem` with the key its line most likely meant, for a key that is not a setting or a
    /// line that is not `key = value` (only a setting's own name is ever added: the line's text
    /// may be a password).
    static func withSuggestion(_ problem: SettingsProblem, keys: [SettingKey]) -> SettingsProblem {
        guard let key = problem.key, !keys.contains(where: { $0.name == key }),
            let near = SettingsCatalog.suggestion(for: key, among: keys)
        else { return problem }
        var problem = problem
        problem.reason += " (did you mean '\(near)'?)"
        return problem
    }

    /// The values of `key` in `arguments` (`--key value`, `--key=value`, or `yes` for a flag).
    static func values(of key: SettingKey, in arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let word = arguments[index]
            if word == "--\(key.name)" {
                if key.isFlag {
                    result.append("yes")
                } else if index + 1 < arguments.count {
                    result.append(arguments[index + 1])
                    index += 1
                }
            } else if word.hasPrefix("--\(key.name)=") {
                result.append(String(word.dropFirst(key.name.count + 3)))
            }
            index += 1
        }
        return key.isRepeating ? result : Array(result.suffix(1))
    }

    /// The report as text: the problems first (what to fix), then every setting and its origin.
    public var text: String {
        var lines: [String] = []
        lines.append("Settings file: \(file)\(fileFound ? "" : " (not there: all defaults)")")
        for problem in problems { lines.append("  FIX: \(problem.description.escapingControlCharacters)") }
        let width = settings.map(\.key.count).max() ?? 0
        for setting in settings {
            let value =
                setting.values.isEmpty
                ? "(none)" : setting.values.map { $0.quotedForMessage(limit: 200) }.joined(separator: ", ")
            let padded = setting.key + String(repeating: " ", count: width - setting.key.count)
            lines.append("  \(padded) = \(value)   [\(setting.origin)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SettingInEffect {
    /// Keys whose values are never shown (in `babyalbum settings`, `doctor` or a log).
    public static func isSecret(_ key: String) -> Bool { key.hasSuffix("password") }

    /// This setting with a secret value replaced by `(hidden)`.
    public var masked: SettingInEffect {
        guard Self.isSecret(key), !values.isEmpty else { return self }
        var copy = self
        copy.values = values.map { _ in "(hidden)" }
        return copy
    }
}
