import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// `older-updates` (issue 64): the card installs an older bundle only when the file says so in a
/// line that is right; everything else leaves the default, no.
@Suite("Update settings: an older bundle only on a clean 'yes'")
struct UpdatePolicyTests {
    private func policy(_ text: String) throws -> [String] {
        UpdatePolicyCommand.lines(
            for: try SettingsWiring.resolve(file: SettingsFile(path: "babyalbum.txt", contents: text), commandLine: []))
    }

    @Test("yes in any of the file's spellings allows it; no file line, no")
    func allowed() throws {
        #expect(try policy("older-updates = yes\n") == ["older-updates=yes"])
        #expect(try policy("  Older-Updates=YES   # going back to 0.4\r\n") == ["older-updates=yes"])
        #expect(try policy("older-updates = on\n") == ["older-updates=yes"])
        #expect(try policy("interval = 20\n") == ["older-updates=no"])
        #expect(try policy("") == ["older-updates=no"])
        let twice = try policy("older-updates = yes\nolder-updates = no\n")
        #expect(twice.last == "older-updates=no", "the last line wins")
        #expect(twice.first?.contains("is set again on line 2, which wins") == true)
    }

    @Test("A wrong value or a misspelt key is one line, and no")
    func failsClosed() throws {
        let wrongValue = try policy("older-updates = yse\n")
        #expect(wrongValue.last == "older-updates=no")
        #expect(wrongValue.count == 2 && wrongValue[0].hasPrefix("update-policy: babyalbum.txt line 1: "))
        let misspelt = try policy("interval = 20\nolder-update = yes\n")
        #expect(
            misspelt == [
                "update-policy: babyalbum.txt line 2: 'older-update' is not a setting; this line is left out",
                "older-updates=no",
            ])
        // Another program's wrong line is not the update check's to report.
        #expect(try policy("wifi-pasword = hunter2222\nolder-updates = yes\n") == ["older-updates=yes"])
    }

    @Test("Notepad's UTF-16 with its byte order mark is read; a file that is not text is no")
    func encodings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("update-policy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notepad = folder.appendingPathComponent("notepad.txt")
        try (Data([0xFF, 0xFE]) + "older-updates = yes\r\n".data(using: .utf16LittleEndian)!).write(to: notepad)
        let resolved = try SettingsWiring.resolve(file: SettingsFile.read(notepad.path), commandLine: [])
        #expect(UpdatePolicyCommand.lines(for: resolved) == ["older-updates=yes"])
        let broken = folder.appendingPathComponent("broken.txt")
        try Data([0x6F, 0x3D, 0xC3, 0x28, 0x0A]).write(to: broken)
        let lines = UpdatePolicyCommand.lines(
            for: try SettingsWiring.resolve(file: SettingsFile.read(broken.path), commandLine: []))
        #expect(lines.last == "older-updates=no")
        #expect(lines.count >= 2, "the file's own problem is reported: \(lines)")
    }
}
