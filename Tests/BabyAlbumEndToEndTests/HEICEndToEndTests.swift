import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// The slideshow shows an iPhone-style grid HEIC (made here with heif-enc and
/// Tests/HEIF/heif_fixtures.py), decoded in its sandboxed worker: the frame it writes is the
/// in-process decoder's frame.
@Suite struct HEICEndToEndTests {
    static let script = BabyAlbumProcess.repository + "/Tests/HEIF/heif_fixtures.py"

    @Test func aGridHEICIsShownThroughTheWorker() throws {
        let album = try TemporaryFolder()
        defer { album.remove() }
        let frames = try TemporaryFolder()
        defer { frames.remove() }
        let work = try TemporaryFolder()
        defer { work.remove() }
        try run(["/usr/bin/python3", Self.script, "photo", work.file("photo.png"), "1200", "900"])
        try run(["/usr/bin/python3", Self.script, "grid", work.file("photo.png"), album.file("IMG_0001.HEIC")])
        let result = try BabyAlbumProcess.run([
            "--photos", album.path, "--output", "png:" + frames.path, "--size", "160x120", "--count", "1",
        ])
        #expect(result.status == 0, "\(result.log)")
        #expect(frames.files() == ["frame-0001.png"], "\(result.log)")
        let shown = try PNGDecoder.decode(frames.file("frame-0001.png"))
        let expected = try PhotoDecoder.decode(album.file("IMG_0001.HEIC"), to: shown.size, scale: .fill)
        #expect(shown.size == FrameSize(width: 160, height: 120))
        #expect(shown.pixels == expected.pixels)
    }

    private func run(_ arguments: [String]) throws { try runProgram(arguments) }
}
