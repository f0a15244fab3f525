import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

@Suite("Settings file: reading lines")
struct SettingsFileTests {
    @Test("CRLF endings, a UTF-8 byte-order mark, trailing spaces and keys in any case")
    func windowsFile() {
        let file = SettingsFile(
            path: "f", contents: "\u{FEFF}Interval = 30  \r\nSCALE=fit\t\r\n\r\nExit_Key = KEY_ESC \r\n")
        #expect(file.problems == [])
        #expect(
            file.entries == [
                SettingsEntry(key: "interval", value: "30", line: 1),
                SettingsEntry(key: "scale", value: "fit", line: 2),
                SettingsEntry(key: "exit-key", value: "KEY_ESC", line: 4),
            ])
    }

    @Test("Comments: whole lines, after a value, and a '#' inside a value stays")
    func comments() {
        let file = SettingsFile(
            path: "f", contents: "# a comment\n  # indented\n; ini style\ninterval = 20 # seconds\nphotos = /srv/a#b\n")
        #expect(
            file.entries == [
                SettingsEntry(key: "interval", value: "20", line: 4),
                SettingsEntry(key: "photos", value: "/srv/a#b", line: 5),
            ])
    }

    @Test("Quotes around a value are removed; lines without '=' are problems with their number")
    func quotesAndMalformed() {
        let file = SettingsFile(path: "f", contents: "photos = \"/srv/my photos\"\nhello\n= 3\n")
        #expect(file.entries == [SettingsEntry(key: "photos", value: "/srv/my photos", line: 1)])
        #expect(file.problems.map(\.line) == [2, 3])
        #expect(file.problems.allSatisfy { $0.file == "f" })
    }

    @Test("Lone CR line endings (old Mac editors) also end lines")
    func carriageReturns() {
        let file = SettingsFile(path: "f", contents: "interval = 5\rscale = fit\r")
        #expect(file.entries.map(\.key) == ["interval", "scale"])
        #expect(file.entries.map(\.line) == [1, 2])
    }

    @Test("A missing file is nil; a file that is not UTF-8 is read with a problem on line 0")
    func reading() throws {
        #expect(SettingsFile.read("/nonexistent/babyalbum.txt") == nil)
        let path = NSTemporaryDirectory() + "babyalbum-latin1-\(getpid()).txt"
        try Data([0x69, 0x6E, 0x74, 0x65, 0x72, 0x76, 0x61, 0x6C, 0x3D, 0x35, 0x0A, 0x23, 0xE9, 0x0A]).write(
            to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try #require(SettingsFile.read(path))
        #expect(file.entries == [SettingsEntry(key: "interval", value: "5", line: 1)])
        #expect(file.problems.map(\.line) == [0])
    }

    @Test("The default path: the Raspberry Pi's boot partition when there is one, else /etc")
    func defaultPath() {
        #expect(SettingsFile.defaultPath { $0 == "/boot/firmware/config.txt" } == "/boot/firmware/babyalbum.txt")
        #expect(SettingsFile.defaultPath { _ in false } == "/etc/babyalbum/babyalbum.conf")
    }
}

@Suite("Settings file: merged with the command line by the command's own parser")
struct SettingsResolverTests {
    @Test("Good lines become options; the command sees them")
    func goodLines() throws {
        let resolution = try resolve("interval = 2.5\r\nscale = fit\r\nseed = 7\r\n")
        #expect(resolution.problems == [])
        #expect(resolution.command.interval == 2.5)
        #expect(resolution.command.scale == .fit)
        #expect(resolution.command.seed == 7)
    }

    @Test("Repeated lines of a repeatable option add up; a repeated single option keeps the last")
    func repeats() throws {
        let resolution = try resolve("exit-key = KEY_ESC\nexit-key = 116\ninterval = 5\ninterval = 9\n")
        #expect(resolution.command.exitButton.exitKey == ["KEY_ESC", "116"])
        #expect(resolution.command.interval == 9)
    }

    @Test("Unknown keys and bad values are left out with their line and reason; the rest applies")
    func badLines() throws {
        let resolution = try resolve(
            "intervall = 3\ninterval = abc\nfade = 9\nexit-key = KEY_NOPE\nscale = sideways\nseed = 5\nsize = 0x0\n")
        #expect(resolution.problems.map(\.line) == [1, 2, 3, 4, 5, 7])
        #expect(resolution.problems[0].reason == "'intervall' is not a setting")
        #expect(resolution.problems[1].reason.contains("'abc'"))
        #expect(resolution.problems[2].reason.contains("--fade"))
        #expect(resolution.problems[3].reason.contains("KEY_NOPE"))
        // Positive control in the same file: the good line applies.
        #expect(resolution.command.seed == 5)
        #expect(resolution.command.interval == 15)
        #expect(resolution.command.fade == 1)
    }

    @Test("The command line wins, also over every line of a repeated key")
    func commandLineWins() throws {
        let resolution = try resolve(
            "interval = 30\nexit-key = KEY_ESC\nexit-key = 116\nscale = fit\n",
            commandLine: ["--interval", "4", "--exit-key=KEY_HOMEPAGE"])
        #expect(resolution.command.interval == 4)
        #expect(resolution.command.exitButton.exitKey == ["KEY_HOMEPAGE"])
        #expect(resolution.command.scale == .fit)
        #expect(resolution.problems == [])
    }

    @Test("Only a broken command line is an error, never the file")
    func brokenCommandLine() throws {
        #expect(throws: (any Error).self) { try resolve("interval = 3\n", commandLine: ["--interval", "-1"]) }
        #expect(throws: (any Error).self) { try resolve("", commandLine: ["--frobnicate"]) }
        #expect(throws: Never.self) { try resolve("frobnicate = 1\ninterval = -1\n") }
    }

    @Test("A photo folder that does not exist is no problem of the file: the frame shows it as empty")
    func missingFolderIsNotAUsageError() throws {
        let resolution = try SettingsResolver.resolve(
            Show.self,
            file: SettingsFile(path: "f", contents: "interval = 3\nphotos = /nonexistent/photos\n"),
            commandLine: [], ignoring: SettingsWiring.excludedKeys)
        #expect(resolution.problems == [])
        #expect(resolution.command.folders.photos == ["/nonexistent/photos"])
        #expect(resolution.command.interval == 3)
    }

    @Test("Flags take yes or no; 'settings' cannot be set from the file")
    func flagsAndExcluded() throws {
        #expect(try resolve("statistics = yes\n").command.statistics)
        #expect(try !resolve("statistics = no\n").command.statistics)
        #expect(try resolve("statistics = maybe\n").problems.map(\.line) == [1])
        // Beside a bad line (the file is then read line by line), the same words.
        let mixed = try resolve("statistics = on\nintervall = 3\n")
        #expect(mixed.command.statistics)
        #expect(mixed.problems.map(\.line) == [2])
        #expect(mixed.fileValues == [["statistics", "on"]])
        #expect(try resolve("settings = /etc/other.conf\n").problems.map(\.line) == [1])
    }

    /// A good value for every key; a new option fails ``everyKey()`` until it is added here.
    static let samples: [String: String] = [
        "photos": photoFolder, "time-servers": "10.0.2.2 ntp.example.org", "wifi-name": "Home",
        "wifi-password": "12345678", "wifi-country": "DE", "wifi-hidden": "yes", "interval": "20", "count": "3",
        "output": "png:/tmp/x",
        "size": "640x480",
        "mode": "1280x720", "scale": "fit", "transition": "none", "fade": "2", "seed": "42",
        "max-photo-megapixels": "50", "exit-key": "KEY_ESC", "exit-device": "gpio", "exit-hold": "2",
        "state-dir": "none", "statistics": "yes", "quiet-hours": "mon-fri 19:00-07:00", "quiet-mode": "dim:20",
        "quiet-hours-without-clock": "dark", "clock-notice": "on", "clock-module": "ds3231",
        "time-zone": "Europe/Berlin",
        "family-library": "6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA6",
        "family-library-network": "local",
        "name": "Mia", "birthday": "2024-03-10", "caption": "date",
        "caption-font": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "rotate": "90", "sticks": "none", "stick-photos": "replace", "older-updates": "yes",
        "update-result": "/var/lib/babyalbum/update-result", "without-display": "run",
    ]

    @Test("Every key of the command can be set from the file")
    func everyKey() throws {
        let keys = SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys)
        #expect(keys.count >= 15)
        for key in keys {
            let value = try #require(Self.samples[key.name], "no sample value for the new key '\(key.name)'")
            let resolution =
                key.name == "photos"
                ? try SettingsResolver.resolve(
                    Show.self, file: SettingsFile(path: "f", contents: "photos = \(value)\n"), commandLine: [],
                    ignoring: SettingsWiring.excludedKeys)
                : try resolve("\(key.name) = \(value)\n")
            #expect(resolution.problems == [], "\(key.name)")
            #expect(resolution.accepted.map(\.key) == [key.name])
        }
    }
}

@Suite("Settings: the example file and the report")
struct SettingsReportTests {
    @Test("The example lists every visible key with its default, commented out, and reads back clean")
    func example() throws {
        let example = SettingsWiring.example
        let keys = SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys)
        for key in keys where key.isVisible {
            #expect(example.contains("\n# \(key.name) ="), "\(key.name)")
        }
        #expect(example.contains("\n# interval = 15.0\n"))
        #expect(example.contains("\n# exit-key = KEY_POWER\n"))
        #expect(SettingsFile(path: "x", contents: example).entries == [])
        // Uncommented, the defaults are all accepted (keys without a default have no value to give).
        let uncommented = example.split(separator: "\n").filter { $0.contains(/^# [a-z-]+ = ./) }
            .map { $0.dropFirst(2) }.filter { !$0.hasPrefix("photos") && !$0.hasSuffix(" =") }.joined(separator: "\n")
        #expect(try resolve(uncommented).problems == [])
    }

    @Test("The report names each setting's origin and suggests the key a typo meant")
    func report() throws {
        let commandLine = ["--photos", photoFolder, "--seed", "3"]
        let resolution = try SettingsResolver.resolve(
            Show.self, file: SettingsFile(path: "b.txt", contents: "# x\r\nintervall = 3\r\nscale = fit\r\n"),
            commandLine: commandLine, ignoring: SettingsWiring.excludedKeys)
        let report = SettingsReport(
            file: "b.txt", fileFound: true, resolution: resolution,
            keys: SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys), commandLine: commandLine)
        let byKey = Dictionary(uniqueKeysWithValues: report.settings.map { ($0.key, $0) })
        #expect(byKey["scale"]?.origin == "b.txt line 3")
        #expect(byKey["seed"]?.origin == "command line")
        #expect(byKey["interval"]?.origin == "default")
        #expect(byKey["interval"]?.values == ["15.0"])
        #expect(report.problems.map(\.reason) == ["'intervall' is not a setting (did you mean 'interval'?)"])
        #expect(report.text.contains("FIX: b.txt line 2: 'intervall' is not a setting"))
    }
}
