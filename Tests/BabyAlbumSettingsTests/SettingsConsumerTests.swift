import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// One resolution of `babyalbum.txt` for every program that reads it (issue 67): each takes its
/// typed values from it and reports the lines left out that concern it, chosen by key.
@Suite("Settings: one typed resolution, each program's keys")
struct SettingsConsumerTests {
    @Test("Each card program consumes its own keys, all of them the slideshow's")
    func keys() {
        #expect(
            SettingsConsumer.networkSetup.keys
                == ["time-servers", "wifi-name", "wifi-hidden", "wifi-password", "wifi-country"])
        #expect(SettingsConsumer.clockModuleSetup.keys == ["clock-module"])
        #expect(SettingsConsumer.familyLibrary.keys == ["family-library", "family-library-network", "name"])
        #expect(SettingsConsumer.updateCheck.keys == ["older-updates", "quiet-hours"])
        let cardKeys = [SettingsConsumer.networkSetup, .clockModuleSetup, .familyLibrary, .updateCheck].map(\.keys)
        for keys in cardKeys { #expect(keys.isSubset(of: SettingsConsumer.slideshow.keys)) }
        #expect(Set(cardKeys.joined()).count == cardKeys.map(\.count).reduce(0, +), "no key read by two")
        #expect(!SettingsConsumer.slideshow.keys.contains("settings"))
    }

    /// A file as a parent leaves it: a line wrong for each program, and two misspelt keys.
    static let file = """
        interval = soon
        wifi-name = Home
        wifi-country = DE
        wifi-pasword = hunter2222
        wifi-hidden = perhaps
        clock-module = ds1307
        family-libary = ABC
        family-library-network = everywhere
        name = Mia
        birthday = 2024-13-01
        """

    @Test("Each program reports the lines of its keys, and the misspelt keys that may be its own")
    func problemsByKey() throws {
        let resolution = try SettingsWiring.resolve(
            file: SettingsFile(path: "babyalbum.txt", contents: Self.file), commandLine: [])
        #expect(resolution.problems.map(\.line) == [1, 4, 5, 6, 7, 8, 10])
        #expect(SettingsConsumer.slideshow.problems(in: resolution).map(\.line) == [1, 4, 5, 6, 7, 8, 10])
        #expect(SettingsConsumer.networkSetup.problems(in: resolution).map(\.line) == [4, 5, 7])
        #expect(SettingsConsumer.clockModuleSetup.problems(in: resolution).map(\.line) == [6])
        #expect(SettingsConsumer.familyLibrary.problems(in: resolution).map(\.line) == [7, 8])
        // The typed values each takes, from the one parse: the good lines are in effect.
        #expect(resolution.command.network.wifiName == "Home")
        #expect(resolution.command.name == "Mia")
        #expect(resolution.command.interval == 15)
    }

    @Test("A file that is no settings file at all is every program's problem")
    func fileProblems() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Not UTF-8 (an invalid sequence), nor UTF-16.
        try Data([0x69, 0x3D, 0xC3, 0x28, 0x0A]).write(to: URL(fileURLWithPath: path))
        let resolution = try SettingsWiring.resolve(file: SettingsFile.read(path), commandLine: [])
        let fileProblems = resolution.problems.filter { $0.line == 0 }
        #expect(!fileProblems.isEmpty)
        for consumer in SettingsConsumer.allCases {
            #expect(consumer.problems(in: resolution).filter { $0.line == 0 } == fileProblems)
        }
    }

    @Test("After SIGHUP the slideshow restarts only when a value in effect changed")
    func changeDetection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("babyalbum.txt").path
        let commandLine = ["--photos", photoFolder, "--settings", path]
        try "interval = 20\nname = Mia\n".write(toFile: path, atomically: true, encoding: .utf8)
        let started = try SettingsWiring.resolve(commandLine: commandLine).resolution
        let changed = SettingsWiring.changeDetector(
            SettingsAtStart(commandLine: commandLine, fileValues: started.fileValues))
        #expect(!changed())
        try "# a comment\n\ninterval = 20\r\nname = Mia   # the child\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(!changed(), "comments, blank lines and line endings are no change")
        try "interval = 20\nname = Mia\nintervall = 5\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!changed(), "a line left out is no change")
        try "interval = 30\nname = Mia\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(changed())
    }
}
