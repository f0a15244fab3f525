import ArgumentParser
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keys of a command, read from its parser's own description (`--experimental-dump-help`),
/// so that the list follows the options as they change.
public enum SettingsCatalog {
    /// Every long option of `Command` except `help` and those in `excluding`.
    public static func keys<Command: ParsableCommand>(
        of type: Command.Type, excluding excluded: Set<String> = []
    ) -> [SettingKey] {
        let known = read.withLock { $0[ObjectIdentifier(type)] }
        let all = known ?? describedKeys(of: type)
        if known == nil { read.withLock { $0[ObjectIdentifier(type)] = all } }
        return all.filter { !excluded.contains($0.name) }
    }

    /// The keys read so far, by command: a command's options do not change while it runs, and
    /// reading them is a parse and a JSON decode (slow on a Pi, slower under emulation).
    private static let read = Mutex<[ObjectIdentifier: [SettingKey]]>([:])

    private static func describedKeys<Command: ParsableCommand>(of type: Command.Type) -> [SettingKey] {
        var dump = ""
        do { _ = try type.parse(["--experimental-dump-help"]) } catch { dump = type.fullMessage(for: error) }
        guard let data = dump.data(using: .utf8), let tool = try? JSONDecoder().decode(ToolDump.self, from: data) else {
            return []
        }
        return (tool.command.arguments ?? []).compactMap { argument -> SettingKey? in
            guard argument.kind != "positional",
                let long = argument.names?.first(where: { $0.kind == "long" })?.name,
                long != "help"
            else { return nil }
            return SettingKey(
                name: long, isFlag: argument.kind == "flag", isRepeating: argument.isRepeating ?? false,
                defaultValue: argument.defaultValue, help: argument.abstract ?? "",
                isVisible: argument.shouldDisplay ?? true)
        }
    }

    /// The commented example file: every visible key with its help and default, commented out.
    public static func example(keys: [SettingKey], header: String) -> String {
        var text =
            header.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)".trimmingSuffixSpaces }
            .joined(separator: "\n") + "\n"
        for key in keys where key.isVisible {
            text += "\n# \(key.help)\n"
            if key.isFlag {
                text += "# \(key.name) = no\n"
            } else if let value = key.defaultValue, !value.isEmpty {
                text += "# \(key.name) = \(value)\n"
            } else {
                text += "# \(key.name) =\n"
            }
        }
        return text
    }

    /// The closest key to `name`, for "did you mean" (at most two edits away).
    public static func suggestion(for name: String, among keys: [SettingKey]) -> String? {
        let scored = keys.map { ($0.name, editDistance(name, $0.name)) }.min { $0.1 < $1.1 }
        guard let scored, scored.1 <= 2 else { return nil }
        return scored.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension String {
    fileprivate var trimmingSuffixSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// The parts of ArgumentParser's `ToolInfoV0` JSON that the catalog reads.
private struct ToolDump: Decodable {
    struct Command: Decodable {
        var arguments: [Argument]?
    }
    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var names: [Name]?
        var isRepeating: Bool?
        var defaultValue: String?
        var abstract: String?
        var shouldDisplay: Bool?
    }
    var command: Command
}
