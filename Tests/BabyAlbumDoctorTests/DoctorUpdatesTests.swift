import Foundation
import Testing

@testable import BabyAlbumDoctor

/// `babyalbum doctor` on the card says which system slot runs, the slots' tries as U-Boot's
/// script keeps them, an update on trial and the last update's outcome (issue 64); on a card made
/// before the slots, that it cannot update itself.
@Suite("Doctor: the card's system slots and updates")
struct DoctorUpdatesTests {
    /// `BOOT_ORDER=B A`, `BOOT_A_LEFT=3`, `BOOT_B_LEFT=0`, `BA_TRIAL=B` as U-Boot's
    /// `mkenvimage -s 0x4000` (u-boot-tools 2023.01) wrote them: its CRC-32, little-endian, then
    /// the strings and 0xff to 16 KiB.
    static let slotsFile: [UInt8] = {
        let text = "BOOT_ORDER=B A\0BOOT_A_LEFT=3\0BOOT_B_LEFT=0\0BA_TRIAL=B\0\0"
        let body = Array(text.utf8)
        return [0x06, 0x85, 0x4a, 0xdd] + body + [UInt8](repeating: 0xff, count: 0x4000 - 4 - body.count)
    }()

    func card(
        settings: Bool = true, updates: Bool = true, commandLine: String = "ro rauc.slot=A panic=10\n",
        slots: [UInt8]? = DoctorUpdatesTests.slotsFile, result: String? = nil
    ) throws -> (DoctorUpdatesSection.Files, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-updates-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files = DoctorUpdatesSection.Files()
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        files.commandLine = path("cmdline")
        files.cardSettings = path("babyalbum.txt")
        files.updateConfiguration = path("system.conf")
        files.slots = path("babyalbum-slots.env")
        files.result = path("update-result")
        try commandLine.write(toFile: files.commandLine, atomically: true, encoding: .utf8)
        if settings { try "# settings\n".write(toFile: files.cardSettings, atomically: true, encoding: .utf8) }
        if updates { try "[system]\n".write(toFile: files.updateConfiguration, atomically: true, encoding: .utf8) }
        if let slots { try Data(slots).write(to: URL(fileURLWithPath: files.slots)) }
        if let result { try result.write(toFile: files.result, atomically: true, encoding: .utf8) }
        return (files, folder)
    }

    @Test func theSlotTheTriesTheTrialAndTheLastUpdate() throws {
        let (files, folder) = try card(result: "2026-12-05T11:27:26Z installed 0.3.0+update1 into slot B, rebooting\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let section = try #require(DoctorUpdatesSection.probe(files))
        #expect(section.slot == "A")
        #expect(section.slots == "order B A; tries A 3, B 0")
        #expect(section.trial == "B")
        #expect(section.lastUpdate == "2026-12-05T11:27:26Z installed 0.3.0+update1 into slot B, rebooting")
        #expect(section.warnings.isEmpty)
        #expect(
            section.textLines == [
                "Updates", "  system slot A; order B A; tries A 3, B 0",
                "  on trial: the update in slot B, until its frame shows a photo",
                "  last update: 2026-12-05T11:27:26Z installed 0.3.0+update1 into slot B, rebooting",
            ])
    }

    @Test func aDamagedSlotsFileIsAWarningNotItsContents() throws {
        var damaged = Self.slotsFile
        damaged[16] ^= 0x01  // one bit of "BOOT_ORDER=B A"
        let (files, folder) = try card(slots: damaged)
        defer { try? FileManager.default.removeItem(at: folder) }
        let section = try #require(DoctorUpdatesSection.probe(files))
        #expect(section.slots == nil)
        #expect(section.trial == nil)
        #expect(
            section.warnings == [
                "updates: \(files.slots) is damaged (its CRC is wrong): U-Boot uses its copy at the next boot"
            ])
    }

    @Test func aCardMadeBeforeTheSlotsCannotUpdateItself() throws {
        let (files, folder) = try card(updates: false, commandLine: "root=PARTUUID=0123abcd-02 ro\n", slots: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let section = try #require(DoctorUpdatesSection.probe(files))
        #expect(section.slot == nil)
        #expect(section.warnings.count == 1)
        #expect(section.warnings.first?.hasPrefix("updates: this card cannot update itself; re-flash it once") == true)
    }

    @Test func aKernelStartedWithoutTheBootScriptHasNoSlot() throws {
        let (files, folder) = try card(commandLine: "root=PARTUUID=0123abcd-02 ro\n", slots: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let section = try #require(DoctorUpdatesSection.probe(files))
        #expect(section.slot == nil)
        #expect(section.warnings.first?.contains("not started by the card's boot script") == true)
    }

    @Test func offTheCardThereIsNoSection() throws {
        let (files, folder) = try card(settings: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(DoctorUpdatesSection.probe(files) == nil)
    }
}
