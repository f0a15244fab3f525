import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// Damaged and hostile settings files: each is made here, and each fails closed with a reason
/// naming the line, while the file's good lines (the positive control) still apply.
@Suite("Settings file: damaged and hostile text")
struct SettingsHostileTests {
    private func write(_ data: Data) throws -> String {
        let path = NSTemporaryDirectory() + "babyalbum-hostile-\(UUID().uuidString).txt"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A file over 64 KB is left out whole with one problem; one just under is read")
    func oversizedFile() throws {
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<(100 * 1024)).map { _ in UInt8.random(in: 0...255, using: &random) })
        let big = try write(noise)
        defer { try? FileManager.default.removeItem(atPath: big) }
        let file = try #require(SettingsFile.read(big))
        #expect(file.entries.isEmpty)
        #expect(file.problems.count == 1)
        #expect(file.problems.first?.line == 0)
        #expect(file.problems.first?.description.contains("over 64 KB") == true, "\(file.problems)")
        // Positive control: a good line padded with comments to just under the limit.
        let padding = String(repeating: "# comment line of padding\n", count: 2400)
        let fits = try write(Data(("interval = 7\n" + padding).utf8))
        defer { try? FileManager.default.removeItem(atPath: fits) }
        #expect(Data(("interval = 7\n" + padding).utf8).count < SettingsFile.maxFileBytes)
        #expect(SettingsFile.read(fits)?.entries == [SettingsEntry(key: "interval", value: "7", line: 1)])
    }

    @Test("A line over 4 KB is left out without being quoted; the next line applies")
    func longLine() {
        let file = SettingsFile(
            path: "f", contents: "photos = /" + String(repeating: "a", count: 5000) + "\nseed = 4\n")
        #expect(file.entries == [SettingsEntry(key: "seed", value: "4", line: 2)])
        #expect(file.problems.map(\.line) == [1])
        #expect(file.problems[0].reason == "the line is longer than 4 KB")
    }

    @Test("A NUL character in a value is an error naming its line")
    func nulInValue() {
        let file = SettingsFile(path: "f", contents: "seed = 4\nphotos = /a\0/b\n")
        #expect(file.entries == [SettingsEntry(key: "seed", value: "4", line: 1)])
        #expect(file.problems.map(\.line) == [2])
        #expect(file.problems[0].description.hasPrefix("f line 2: the line holds a NUL character"))
    }

    @Test("A vertical tab, a form feed, U+0085 and U+2028 do not end a line, and such lines are never quoted")
    func onlyLineFeedsAndReturnsEndLines() {
        let file = SettingsFile(
            path: "f", contents: "a\u{0B}b = 1\nc\u{2028}d = 2\ne\u{0C}f\u{85}g = 3\r\nseed = 4\rscale = fit\n")
        #expect(file.entries.map(\.line) == [4, 5])
        #expect(file.problems.map(\.line) == [1, 2, 3])
        // Quoted lines have their control characters escaped: no raw VT, U+2028 or FF.
        for problem in file.problems {
            #expect(
                !problem.description.unicodeScalars.contains { $0 == "\u{0B}" || $0 == "\u{2028}" || $0 == "\u{0C}" })
        }
        // And no line is quoted at all: a line that is not `key = value` may be a password.
        #expect(file.problems.allSatisfy { !$0.reason.contains("a\\x0B") && !$0.reason.contains("\\u{2028}") })
    }

    @Test("A malformed line is never quoted; an escape sequence in a refused value is escaped in the reason")
    func escapeSequences() throws {
        let folder = NSTemporaryDirectory()
        let resolution = try SettingsResolver.resolve(
            Show.self, file: SettingsFile(path: "f", contents: "\u{1B}[31mred\ninterval = \u{1B}[2J5\nseed = 2\n"),
            commandLine: ["--photos", folder], ignoring: SettingsWiring.excludedKeys)
        #expect(resolution.problems.map(\.line) == [1, 2])
        for problem in resolution.problems {
            #expect(!problem.description.unicodeScalars.contains("\u{1B}"), "\(problem)")
        }
        #expect(!resolution.problems[0].description.contains("red"), "a malformed line is never quoted")
        #expect(resolution.problems[1].description.contains("\\x1B[2J5"), "a refused value is, escaped")
        #expect(resolution.command.seed == 2)
    }

    @Test("Every log line has its control characters escaped, and backslashes are left as they are")
    func escapedText() {
        #expect(
            "a\u{1B}[31mb\u{2028}c\nd\te\u{7F}\u{9B}".escapingControlCharacters
                == #"a\x1B[31mb\u{2028}c\nd\te\x7F\u{9B}"#)
        #expect(#"C:\photos\x1B"#.escapingControlCharacters == #"C:\photos\x1B"#)
        #expect("plain text, üñí".escapingControlCharacters == "plain text, üñí")
        #expect("abc\u{202E}fed\u{2067}".escapingControlCharacters == #"abc\u{202E}fed\u{2067}"#)
    }

    /// `--name` on the command line is quoted in its usage error as the settings file's lines are:
    /// escaped, and cut short.
    @Test func aQuotedNameIsEscapedAndCutShort() {
        #expect("\u{1B}[31mM\u{07}i\u{08}a\u{7F}\t".quotedForMessage() == #"\x1B[31mM\x07i\x08a\x7F\t"#)
        let long = String(repeating: "M", count: 10_000).quotedForMessage()
        #expect(long == String(repeating: "M", count: 60) + "… (10000 characters)")
        #expect("Mia".quotedForMessage() == "Mia")
    }

    @Test("A key that takes one value, set twice, names the line that loses; a repeated key names all its lines")
    func repeatedKeys() throws {
        let folder = NSTemporaryDirectory()
        let text = "interval = 5\nquiet-hours = mon-fri 19:00-07:00\ninterval = 9\nquiet-hours = sat-sun 20:00-08:00\n"
        let commandLine = ["--photos", folder]
        let resolution = try SettingsResolver.resolve(
            Show.self, file: SettingsFile(path: "f", contents: text), commandLine: commandLine,
            ignoring: SettingsWiring.excludedKeys)
        let report = SettingsReport(
            file: "f", fileFound: true, resolution: resolution,
            keys: SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys), commandLine: commandLine)
        #expect(report.problems.map(\.line) == [1])
        #expect(report.problems.first?.reason == "'interval' is set again on line 3, which wins")
        let byKey = Dictionary(uniqueKeysWithValues: report.settings.map { ($0.key, $0) })
        #expect(byKey["interval"]?.values == ["9"])
        #expect(byKey["interval"]?.origin == "f line 3")
        #expect(byKey["quiet-hours"]?.origin == "f lines 2, 4")
    }
}
