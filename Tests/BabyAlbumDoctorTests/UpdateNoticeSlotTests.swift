import AlbumDomain
import Foundation
import Logging
import Testing

@testable import BabyAlbumApp

/// Which frame tells the card's "installed" outcome (issue 64): the frame of the system the line
/// names, at any look, and never the old system's frame, even when it starts again before the
/// reboot; off a card (no `rauc.slot=`), only a frame that starts. Read through a real file, kept
/// as told in the real `-shown` file beside it once told, never before (a frame killed first
/// leaves it to the next).
@Suite("Update outcomes: the system that tells an install")
struct UpdateNoticeSlotTests {
    static let installedIntoB =
        "2026-12-07T06:40:02Z installed 0.3.0+update1 into slot B; it starts after the photo on screen"

    /// A frame's look at an `update-result` holding `line`, with `runningSlot` as the kernel's.
    final class Card {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("update-notice-\(UUID())")
        var result: String { folder.appendingPathComponent("update-result").path }

        init(line: String) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: result))
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        func wiring(runningSlot: String?) -> UpdateNoticeWiring {
            UpdateNoticeWiring(resultFile: result, runningSlot: runningSlot, logger: Logger(label: "test"))
        }
    }

    @Test func theOldSystemNeverTellsAnInstallIntoTheOtherSlotNorKeepsItAsTold() throws {
        let card = try Card(line: Self.installedIntoB)
        let oldSystem = card.wiring(runningSlot: "A")
        #expect(oldSystem.untold(atStart: true) == nil)
        #expect(oldSystem.untold(atStart: false) == nil)
        #expect(!FileManager.default.fileExists(atPath: card.result + "-shown"))
        #expect(card.wiring(runningSlot: "B").untold(atStart: true) == .installed(version: "0.3.0+update1"))
    }

    @Test func theNewSystemTellsItAtALaterLookOnce() throws {
        let card = try Card(line: Self.installedIntoB)
        let newSystem = card.wiring(runningSlot: "B")
        #expect(newSystem.untold(atStart: false) == .installed(version: "0.3.0+update1"))
        #expect(newSystem.untold(atStart: false) == nil)
        newSystem.keepTold()
        #expect(try String(contentsOfFile: card.result + "-shown", encoding: .utf8) == Self.installedIntoB + "\n")
        #expect(card.wiring(runningSlot: "B").untold(atStart: true) == nil)
    }

    @Test func aFrameKilledBeforeKeepingItLeavesItToTheNext() throws {
        let card = try Card(line: Self.installedIntoB)
        #expect(card.wiring(runningSlot: "B").untold(atStart: true) == .installed(version: "0.3.0+update1"))
        #expect(!FileManager.default.fileExists(atPath: card.result + "-shown"))
        let restarted = card.wiring(runningSlot: "B")
        #expect(restarted.untold(atStart: true) == .installed(version: "0.3.0+update1"))
        restarted.stop()
        #expect(card.wiring(runningSlot: "B").untold(atStart: true) == nil)
    }

    @Test func offACardOnlyAFrameThatStartsTellsIt() throws {
        let card = try Card(line: Self.installedIntoB)
        #expect(card.wiring(runningSlot: nil).untold(atStart: false) == nil)
        #expect(card.wiring(runningSlot: nil).untold(atStart: true) == .installed(version: "0.3.0+update1"))
    }

    @Test func aRollbackIsToldByTheSlotThatRuns() throws {
        let line = "2026-12-07T06:49:10Z rolled back: the update in slot B never showed a photo; slot A runs 0.3.0"
        let card = try Card(line: line)
        #expect(card.wiring(runningSlot: "A").untold(atStart: false) == .rolledBack(version: "0.3.0"))
    }

    @Test(arguments: [
        (installedIntoB, "B"), ("2026-12-05T22:38:51Z installed 0.4.0 into slot A, rebooting", "A"),
        ("2026-12-05T22:38:51Z refused stick.raucb: a bundle into slot B", nil),
    ])
    func theSlotAnInstalledLineNames(_ line: String, _ slot: String?) {
        #expect(UpdateResultLine.installedSlot(of: line) == slot)
    }
}
