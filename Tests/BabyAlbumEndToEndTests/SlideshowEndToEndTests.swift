import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// The `babyalbum` binary, run as a user would, with `--output png:`.
@Suite(.serialized) struct SlideshowEndToEndTests {
    let photos = BabyAlbumProcess.repository + "/Photos"

    func frames(seed: Int, in output: TemporaryFolder, count: Int = 5, extra: [String] = []) throws -> [Data] {
        let result = try BabyAlbumProcess.run(
            [
                "--photos", photos, "--output", "png:" + output.path, "--size", "640x360", "--interval", "0.2",
                "--count", String(count), "--seed", String(seed),
            ] + extra)
        #expect(result.status == 0, "\(result.log)")
        return try output.files().map { try Data(contentsOf: URL(fileURLWithPath: output.file($0))) }
    }

    @Test func writesFiveFramesEachAPhotoFillingTheFrameNoTwoAlike() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let written = try frames(seed: 1, in: output)
        #expect(output.files() == (1...5).map { String(format: "frame-%04d.png", $0) })
        #expect(written.count == 5)
        for name in output.files() {
            let frame = try PNGDecoder.decode(output.file(name))
            #expect(frame.size == FrameSize(width: 640, height: 360))
            let blackRows = (0..<360).filter { y in frame.pixels[(y * 640)..<(y * 640 + 640)].allSatisfy { $0 == 0 } }
            let blackColumns = (0..<640).filter { x in
                stride(from: x, to: 640 * 360, by: 640).allSatisfy { frame.pixels[$0] == 0 }
            }
            #expect(blackRows.isEmpty && blackColumns.isEmpty, "\(name) fills the frame")
        }
        for (previous, next) in zip(written, written.dropFirst()) {
            #expect(previous != next)
        }
    }

    @Test func theSameSeedWritesTheSameFramesAndAnotherSeedAnotherOrder() throws {
        let first = try TemporaryFolder()
        let again = try TemporaryFolder()
        let other = try TemporaryFolder()
        defer {
            first.remove()
            again.remove()
            other.remove()
        }
        let one = try frames(seed: 1, in: first)
        #expect(try frames(seed: 1, in: again) == one)
        #expect(try frames(seed: 2, in: other) != one)
    }

    @Test func aPngSuiteImageShownAloneAtItsOwnSizeReproducesItsReference() throws {
        let album = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            album.remove()
            output.remove()
        }
        let suite = BabyAlbumProcess.repository + "/Tests/PhotoCodecTests/Fixtures/pngsuite"
        try FileManager.default.copyItem(atPath: suite + "/png/tbrn2c08.png", toPath: album.file("tbrn2c08.png"))
        let result = try BabyAlbumProcess.run(
            [
                "--photos", album.path, "--output", "png:" + output.path, "--size", "32x32", "--scale", "fit",
                "--count", "1",
            ])
        #expect(result.status == 0, "\(result.log)")
        let frame = try PNGDecoder.decode(output.file("frame-0001.png"))
        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: suite + "/reference/tbrn2c08.rgb")))[8...]
        let decoded = frame.pixels.flatMap { pixel in
            [UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF)]
        }
        #expect(zip(decoded, reference).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func brokenFilesAreSkippedWithOneLogLineAndTheSlideshowGoesOn() throws {
        let album = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            album.remove()
            output.remove()
        }
        for name in ["sunset.png", "duck.png"] {
            try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: album.file(name))
        }
        _ = FileManager.default.createFile(atPath: album.file("empty.png"), contents: Data())
        _ = FileManager.default.createFile(atPath: album.file("notes.png"), contents: Data("not a photo".utf8))
        let sunset = try Data(contentsOf: URL(fileURLWithPath: photos + "/sunset.png"))
        _ = FileManager.default.createFile(atPath: album.file("cut.png"), contents: sunset.prefix(sunset.count / 3))
        let result = try BabyAlbumProcess.run(
            [
                "--photos", album.path, "--output", "png:" + output.path, "--size", "320x180", "--interval", "0.1",
                "--count", "6", "--seed", "4",
            ])
        #expect(result.status == 0, "\(result.log)")
        #expect(output.files().count == 6)
        for name in ["empty.png", "notes.png", "cut.png"] {
            let lines = result.log.split(separator: "\n").filter { $0.contains("skipping") && $0.contains(name) }
            #expect(lines.count == 1, "one line for \(name): \(result.log)")
        }
        #expect(result.log.contains("empty.png: empty file"))
        #expect(result.log.contains("notes.png: not a photo"))
    }

    @Test func anEmptyFolderKeepsRunningOnBlackAndSaysWhyOnceThenSIGTERMExitsZero() throws {
        let album = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            album.remove()
            output.remove()
        }
        let running = try BabyAlbumProcess([
            "--photos", album.path, "--output", "png:" + output.path, "--size", "64x36", "--interval", "0.1",
        ])
        #expect(waitUntil(timeout: 20) { running.log.contains("has no photos") }, "\(running.log)")
        // Five ticks at 0.1 s: an exit, or the message said again, would show within them.
        #expect(holds(for: 0.5) { running.process.isRunning }, "\(running.log)")
        running.process.terminate()
        let result = running.finish()
        #expect(result.status == 0)
        #expect(result.log.components(separatedBy: "has no photos").count == 2, "said once: \(result.log)")
        let frame = try PNGDecoder.decode(output.file("frame-0001.png"))
        #expect(frame.pixels.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [
        (["--interval", "-1"], "--interval"),
        (["--interval", "soon"], "interval"),
        (["--size", "0x0"], "size"),
        (["--output", "hdmi"], "output"),
        (["--scale", "stretch"], "scale"),
        (["--count", "0"], "--count"),
        (["--exit-key", "KEY_NO_SUCH_KEY"], "exit-key"),
    ])
    func badOptionsAreUsageErrorsNamingTheProblem(arguments: [String], mentioned: String) throws {
        let result = try BabyAlbumProcess.run(arguments)
        #expect(result.status == 64, "usage errors exit with EX_USAGE: \(result.log)")
        #expect(result.log.contains(mentioned), "\(result.log)")
        #expect(!result.log.contains("Fatal error"))
    }

    /// Issue 61: a photo folder that is missing (a parent renamed `photos` on the card) is no
    /// usage error: the frame runs, says so once, and shows the photos when the folder comes.
    @Test func aMissingPhotoFolderIsAnEmptyAlbumUntilItComes() throws {
        let parent = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            parent.remove()
            output.remove()
        }
        let album = parent.path + "/photos"
        let running = try BabyAlbumProcess([
            "--photos", album, "--output", "png:" + output.path, "--size", "64x36", "--interval", "0.2",
            "--state-dir", "none",
        ])
        defer { running.process.terminate() }
        #expect(waitUntil(timeout: 20) { running.log.contains("does not exist") }, "\(running.log)")
        #expect(running.process.isRunning, "not a usage error: \(running.log)")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: BabyAlbumProcess.repository + "/Photos/" + (try firstPhotoName()), toPath: album + "/a.png")
        #expect(
            waitUntil(timeout: 20) { running.log.contains("showing") }, "the photo, once it is there: \(running.log)")
        running.process.terminate()
        #expect(running.finish().status == 0)
    }

    private func firstPhotoName() throws -> String {
        try FileManager.default.contentsOfDirectory(atPath: BabyAlbumProcess.repository + "/Photos").filter {
            $0.hasSuffix(".png")
        }.sorted()[0]
    }
}
