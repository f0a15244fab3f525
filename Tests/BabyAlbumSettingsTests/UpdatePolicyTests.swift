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
        #expect(try policy("older-updates = yes\n") == ["older-updates=yes", "quiet-hours=no"])
        #expect(try policy("  Older-Updates=YES   # going back to 0.4\r\n") == ["older-updates=yes", "quiet-hours=no"])
        #expect(try policy("older-updates = on\n") == ["older-updates=yes", "quiet-hours=no"])
        #expect(try policy("interval = 20\n") == ["older-updates=no", "quiet-hours=no"])
        #expect(try policy("") == ["older-updates=no", "quiet-hours=no"])
        let twice = try policy("older-updates = yes\nolder-updates = no\n")
        #expect(twice.suffix(2) == ["older-updates=no", "quiet-hours=no"], "the last line wins")
        #expect(twice.first?.contains("is set again on line 2, which wins") == true)
    }

    @Test("Quiet hours, for the reboot after an install: yes when a window is set")
    func quietHours() throws {
        #expect(try policy("quiet-hours = 19:00-07:00\n") == ["older-updates=no", "quiet-hours=yes"])
        let wrong = try policy("quiet-hours = 25:00-07:00\n")
        #expect(wrong.suffix(2) == ["older-updates=no", "quiet-hours=no"] && wrong.count == 3, "\(wrong)")
    }

    @Test("A wrong value or a misspelt key is one line, and no")
    func failsClosed() throws {
        let wrongValue = try policy("older-updates = yse\n")
        #expect(wrongValue.suffix(2) == ["older-updates=no", "quiet-hours=no"])
        #expect(wrongValue.count == 3 && wrongValue[0].hasPrefix("update-policy: babyalbum.txt line 1: "))
        let misspelt = try policy("interval = 20\nolder-update = yes\n")
        #expect(
            misspelt == [
                "update-policy: babyalbum.txt line 2: 'older-update' is not a setting; this line is left out",
                "older-updates=no", "quiet-hours=no",
            ])
        // Another program's wrong line is not the update check's to report.
        #expect(
            try policy("wifi-pasword = hunter2222\nolder-updates = yes\n") == ["older-updates=yes", "quiet-hours=no"])
    }

    @Test("Notepad's UTF-16 with its byte order mark is read; a file that is not text is no")
    func encodings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("update-policy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notepad = folder.appendingPathComponent("notepad.txt")
        try (Data([0xFF, 0xFE]) + "older-updates = yes\r\n".data(using: .utf16LittleEndian)!).write(to: notepad)
        let resolved = try SettingsWiring.resolve(file: SettingsFile.read(notepad.path), commandLine: [])
        #expect(UpdatePolicyCommand.lines(for: resolved) == ["older-updates=yes", "quiet-hours=no"])
        let broken = folder.appendingPathComponent("broken.txt")
        try Data([0x6F, 0x3D, 0xC3, 0x28, 0x0A]).write(to: broken)
        let lines = UpdatePolicyCommand.lines(
            for: try SettingsWiring.resolve(file: SettingsFile.read(broken.path), commandLine: []))
        #expect(lines.suffix(2) == ["older-updates=no", "quiet-hours=no"])
        #expect(lines.count >= 3, "the file's own problem is reported: \(lines)")
    }
}
