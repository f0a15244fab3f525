import Foundation
import Testing

@testable import TestSupport

/// The card's update outcomes on screen (issue 64), through the real program: the last line of
/// `update-result` (as `deploy/card/update-check` and `slot-good` write it) is told once, in a
/// parent's words, read back from the frame by OCR; a line already told, or of no known form,
/// shows nothing.
@Suite("Update outcomes: told once on screen")
struct UpdateNoticeEndToEndTests {
    /// A folder with one plain photo and an `update-result` file holding `line`.
    final class Card {
        let folder: TemporaryFolder
        var result: String { folder.file("update-result") }

        init(line: String) throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.file("photos"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: BabyAlbumProcess.repository + "/Photos/balloons.png", toPath: folder.file("photos/balloons.png")
            )
            try Data("2026-12-05T22:38:51Z installed 0.4.0 into slot A, rebooting\n\(line)\n".utf8).write(
                to: URL(fileURLWithPath: result))
        }
        deinit { folder.remove() }

        /// One frame of a run (1920x1080, as a television's), its file and the log.
        func frame() throws -> (image: String, log: String) {
            let output = folder.file("frames-" + UUID().uuidString)
            let run = try BabyAlbumProcess.run([
                "--photos", folder.file("photos"), "--output", "png:" + output, "--size", "1920x1080", "--count", "1",
                "--transition", "none", "--seed", "1", "--state-dir", "none", "--sticks", "none",
                "--settings", "/nonexistent", "--update-result", result,
            ])
            #expect(run.status == 0, "\(run.log)")
            return (output + "/frame-0001.png", run.log)
        }
    }

    @Test(arguments: [
        ("2026-12-05T22:40:02Z installed 0.5.0+1 into slot B, rebooting", "Updated to 0.5.0+1"),
        (
            "2026-12-05T22:40:02Z refused b.raucb: not signed for this frame (signature verification failed: "
                + "Verify error: self-signed certificate)", "Update refused: not signed for this frame"
        ),
        (
            "2026-12-05T22:40:02Z refused old.raucb: 0.2.0 is older than the running 0.3.0 (older-updates = yes "
                + "in babyalbum.txt allows it)", "Update refused: 0.2.0 is older than the running 0.3.0"
        ),
        (
            "2026-12-05T22:40:02Z rolled back: the update in slot B never showed a photo; slot A runs 0.3.0",
            "The update did not start: back to 0.3.0"
        ),
    ])
    func theLastOutcomeIsToldOnceInAParentsWords(_ line: String, _ words: String) throws {
        let card = try Card(line: line)
        let first = try card.frame()
        #expect(first.log.contains("on screen: \"\(words)\""), "\(first.log)")
        #expect(try CaptionEndToEndTests.ocr(first.image).contains(words))
        #expect(try String(contentsOfFile: card.result + "-shown", encoding: .utf8) == line + "\n")
        // The next start has nothing to tell: the frame is the photo alone.
        let again = try card.frame()
        #expect(!again.log.contains("on screen:"), "\(again.log)")
        #expect(!(try CaptionEndToEndTests.ocr(again.image).contains("Update")))
    }

    @Test func aLineOfNoKnownFormShowsNothing() throws {
        let card = try Card(line: "2026-12-05T22:40:02Z something else happened")
        let run = try card.frame()
        #expect(!run.log.contains("on screen:"), "\(run.log)")
        #expect(!FileManager.default.fileExists(atPath: card.result + "-shown"))
    }
}
