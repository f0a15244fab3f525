import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// The `babyalbum` binary showing a folder while photos are copied into it (one written slowly,
/// one renamed into place the way rsync does) and one is deleted.
@Suite(.serialized) struct LivingFolderEndToEndTests {
    let photos = BabyAlbumProcess.repository + "/Photos"
    let size = FrameSize(width: 160, height: 90)

    /// The photos named by the log's "showing" lines, in order.
    func shown(in log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "showing ") else { return nil }
            return URL(fileURLWithPath: String(line[range.upperBound...])).lastPathComponent
        }
    }

    /// Waits until the log shows `count` photos, at most 20 s.
    func waitForShowings(_ count: Int, of process: BabyAlbumProcess) {
        let deadline = Date().addingTimeInterval(20)
        while shown(in: process.log).count < count, Date() < deadline { usleep(10_000) }
    }

    @Test func newPhotosJoinWithinARoundAndNeitherDeletedNorHalfWrittenOnesShow() async throws {
        let album = try TemporaryFolder()
        let output = try TemporaryFolder()
        defer {
            album.remove()
            output.remove()
        }
        for name in ["sunset.png", "duck.png", "meadow.png"] {
            try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: album.file(name))
        }
        let running = try BabyAlbumProcess(
            [
                "--photos", album.path, "--output", "png:" + output.path, "--size", "160x90", "--interval", "0.2",
                "--state-dir", "none", "--seed", "7", "--scale", "fill",
            ])
        waitForShowings(2, of: running)

        // A photo written slowly: half of it, then (ten ticks later) the rest.
        let balloons = try Data(contentsOf: URL(fileURLWithPath: photos + "/balloons.png"))
        #expect(FileManager.default.createFile(atPath: album.file("balloons.png"), contents: nil))
        let writer = try #require(FileHandle(forWritingAtPath: album.file("balloons.png")))
        writer.write(balloons.prefix(balloons.count / 2))
        let halfWrittenAt = shown(in: running.log).count
        waitForShowings(halfWrittenAt + 10, of: running)
        #expect(shown(in: running.log).count >= halfWrittenAt + 10, "ten ticks while half written: \(running.log)")
        writer.write(balloons.suffix(from: balloons.count / 2))
        try writer.close()
        let completedAt = shown(in: running.log).count

        // A photo renamed into place, the way rsync and Syncthing finish a copy.
        try FileManager.default.copyItem(atPath: photos + "/rainbow.png", toPath: album.file(".rainbow.png.partial"))
        try FileManager.default.moveItem(atPath: album.file(".rainbow.png.partial"), toPath: album.file("rainbow.png"))
        let renamedAt = shown(in: running.log).count

        // A photo deleted.
        try FileManager.default.removeItem(atPath: album.file("sunset.png"))
        let deletedAt = shown(in: running.log).count

        waitForShowings(deletedAt + 16, of: running)
        running.process.terminate()
        let result = running.finish()
        #expect(result.status == 0, "\(result.log)")
        let order = shown(in: result.log)

        // Never half-written: not shown, not even tried, before its writer closed it.
        #expect(!order.prefix(completedAt).contains("balloons.png"), "\(order)")
        #expect(!result.log.contains("balloons.png:"), "balloons.png was never tried half-written: \(result.log)")
        // Each new photo within a round (four or five photos) of arriving.
        #expect(order[completedAt...].prefix(5).contains("balloons.png"), "\(order)")
        #expect(order[renamedAt...].prefix(5).contains("rainbow.png"), "\(order)")
        // A deleted photo is never chosen again (the frame decoded for the tick at the very
        // moment of deletion may still show).
        #expect(!order.dropFirst(deletedAt + 1).contains("sunset.png"), "\(order)")
        // No repeats, and every frame written is one whole photo.
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 != $1 }, "\(order)")
        var expected: [String: [UInt32]] = [:]
        for name in ["sunset.png", "duck.png", "meadow.png", "balloons.png", "rainbow.png"] {
            let frame = try PhotoFramePreparer(scale: .fill).prepareFrame(
                for: Photo(id: PhotoID(photos + "/" + name)), size: size)
            expected[name] = frame.pixels.map { $0 & 0xFF_FFFF }
        }
        let frames = output.files()
        #expect(frames.count == order.count, "one frame per photo shown: \(frames.count) frames, \(order)")
        for (name, photo) in zip(frames, order) {
            let pixels = try PNGDecoder.decode(output.file(name)).pixels.map { $0 & 0xFF_FFFF }
            #expect(pixels == expected[photo], "\(name) is the whole of \(photo)")
        }
    }
}
