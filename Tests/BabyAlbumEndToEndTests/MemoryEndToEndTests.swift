import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import TestSupport
import Testing

/// Resident memory stays flat however many photos are shown.
@Suite struct MemoryEndToEndTests {
    @Test func residentMemoryDoesNotGrowAcrossThousandsOfPhotos() throws {
        let album = try TemporaryFolder()
        defer { album.remove() }
        for index in 0..<20 {
            let frame = Frame(
                size: FrameSize(width: 96, height: 64),
                pixels: (0..<(96 * 64)).map {
                    UInt32(truncatingIfNeeded: $0 &* (index + 1) &* 2_654_435_761) & 0xFF_FFFF
                })
            try PNGEncoder.write(frame, to: album.file("photo-\(index).png"))
        }
        let running = try BabyAlbumProcess(
            [
                "--photos", album.path, "--output", "memory", "--size", "320x180", "--interval", "0.001", "--count",
                "4000",
            ])
        var samples: [Int] = []
        while running.process.isRunning {
            if let rss = residentKilobytes(of: running.process.processIdentifier) { samples.append(rss) }
            usleep(20_000)
        }
        let result = running.finish()
        #expect(result.status == 0, "\(result.log)")
        #expect(result.log.contains("showed 4000 photos"))
        try #require(samples.count >= 10, "enough samples of a run that lasts a while: \(samples.count)")
        let early = samples[(samples.count / 10)..<(samples.count / 5)].max()!
        let late = samples[(samples.count * 4 / 5)...].max()!
        #expect(late - early < 16 * 1024, "VmRSS grew from \(early) kB to \(late) kB")
    }
}
