import AlbumDomain
import PNGFileView
import PhotoCodec
import PhotoDecoding
import Testing

@testable import FrameFinishing

/// The "Clock not set" line on real pixels: drawn by ``NoticeFrameView`` over the pictures the
/// PNG file view writes, in the top-left corner, and gone with the notice.
@Suite struct NoticeFrameViewTests {
    static let size = FrameSize(width: 640, height: 360)
    static let white: UInt32 = 0xFF_FFFF
    static let text = "Clock not set: add Wi-Fi in babyalbum.txt"

    /// Writes `models` through a notice view over a PNG file view, and reads the files back.
    func written(_ models: [FrameViewModel]) async throws -> [Frame] {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let files = PNGFileView(directory: scratch.folder, size: Self.size)
        let view = NoticeFrameView(over: files, font: try CaptionFont(), size: Self.size, rotation: .none)
        for model in models { try await view.render(model) }
        return try (1...models.count).map { try PNGDecoder.decode(scratch.path("frame-000\($0).png")) }
    }

    func photo(notice: String?) -> FrameViewModel {
        var model = FrameViewModel(
            content: .photo(
                Photo(id: PhotoID("a")),
                frame: Frame(size: Self.size, pixels: [UInt32](repeating: Self.white, count: Self.size.pixelCount))),
            displayPower: .on)
        model.notice = notice
        return model
    }

    /// The pixels that differ from `background`, as (x, y).
    func changed(_ frame: Frame, from background: UInt32) -> [(x: Int, y: Int)] {
        frame.pixels.indices.filter { frame.pixels[$0] != background }.map {
            (x: $0 % Self.size.width, y: $0 / Self.size.width)
        }
    }

    @Test func theLineIsDrawnSmallInTheTopLeftCornerAndGoesWithTheNotice() async throws {
        let frames = try await written([photo(notice: Self.text), photo(notice: nil)])
        let drawn = changed(frames[0], from: Self.white)
        #expect(drawn.count > 500, "the line's band and letters")
        #expect(drawn.allSatisfy { $0.y < Self.size.height / 6 }, "one small line at the top")
        #expect(drawn.allSatisfy { $0.x < Self.size.width * 9 / 10 })
        #expect(drawn.contains { $0.x < 40 }, "from the left edge")
        #expect(changed(frames[1], from: Self.white).isEmpty, "gone with the notice: the photo as it was")
    }

    @Test func aBlackScreenGetsTheLineOnBlack() async throws {
        var waiting = FrameViewModel(content: .black(reason: "the album has no photos"), displayPower: .on)
        waiting.notice = Self.text
        let frames = try await written([waiting])
        let drawn = changed(frames[0], from: 0)
        #expect(!drawn.isEmpty)
        #expect(drawn.allSatisfy { $0.y < Self.size.height / 6 })
    }

    @Test func theSameStateDrawnAgainIsTheSameFrame() throws {
        let view = NoticeFrameView(
            over: PNGFileView(directory: "/nonexistent", size: Self.size), font: try CaptionFont(), size: Self.size,
            rotation: .none)
        let model = photo(notice: Self.text)
        #expect(view.withNotice(model) == view.withNotice(model), "no new picture for an unchanged state")
        let plain = photo(notice: nil)
        #expect(view.withNotice(plain) == plain, "without a notice, untouched")
    }

    /// Issue 61: with no photo anywhere, the screen says in one short line where to put photos.
    @Test func aScreenWithNoPhotosSaysWhereToPutThem() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let line = "No photos yet: copy photos into the photos folder of the card's BABYALBUM drive"
        let view = NoticeFrameView(
            over: PNGFileView(directory: scratch.folder, size: Self.size), font: try CaptionFont(), size: Self.size,
            rotation: .none, hints: [.noPhotos: line])
        var empty = FrameViewModel(content: .black(reason: "the album has no photos"), displayPower: .on)
        empty.hint = .noPhotos
        try await view.render(empty)
        let drawn = changed(try PNGDecoder.decode(scratch.path("frame-0001.png")), from: 0)
        #expect(drawn.count > 500, "the line on black")
        #expect(drawn.allSatisfy { $0.y < Self.size.height / 6 }, "one short line at the top")
        // Without words for the hint (a file view), the screen stays black.
        let plain = NoticeFrameView(
            over: PNGFileView(directory: "/nonexistent", size: Self.size), font: try CaptionFont(), size: Self.size,
            rotation: .none)
        #expect(plain.withNotice(empty) == empty)
    }
}
