import AlbumDomain
import Synchronization
import Testing

@testable import FrameFinishing
@testable import PhotoCodec

/// The caption painter: which photos get a caption, the one debug line for an unusable date,
/// and frames without a caption left as they are.
@Suite struct CaptionPainterTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static let mia = Child(name: "Mia", birthday: CivilDate(iso: "2024-03-10")!)

    func painter(_ style: CaptionStyle, _ lines: Lines) throws -> CaptionPainter {
        CaptionPainter(
            policy: CaptionPolicy(style: style, children: [Self.mia]), font: try CaptionFont(),
            debug: { lines.add($0) })
    }

    func exif(_ date: String) -> PhotoMetadata { PhotoMetadata(exif: TIFFBlock(date: date).bytes) }

    @Test func anUnusableDateIsOneDebugLineAndNoCaption() throws {
        let lines = Lines()
        let painter = try painter(.ageAndDate, lines)
        #expect(painter.text(for: exif("2024:02:31 10:00:00"), name: "a.jpg") == nil)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("a.jpg") == true, "\(lines.all)")
        #expect(lines.all.first?.contains("2024:02:31") == true, "\(lines.all)")
        #expect(painter.text(for: PhotoMetadata(), name: "b.png") == nil)
        #expect(lines.all.count == 1, "no line for a photo without a date")
    }

    @Test func textForEachSource() throws {
        let lines = Lines()
        let painter = try painter(.age, lines)
        #expect(painter.text(for: exif("2025:05:12 10:00:00"), name: "x") == "Mia, 1 year, 2 months")
        let time = PhotoMetadata.pngTime(year: 2024, month: 4, day: 10, hour: 0, minute: 0, second: 0)
        #expect(painter.text(for: PhotoMetadata(pngTime: time), name: "x") == "Mia, 4 weeks")
        #expect(painter.text(for: exif("2023:05:12 10:00:00"), name: "x") == nil, "before the birthday")
        #expect(lines.all.isEmpty)
    }

    @Test func aFrameWithoutACaptionIsTheSameFrame() throws {
        let frame = Frame(
            size: FrameSize(width: 64, height: 48), pixels: [UInt32](repeating: 0xFF_FFFF, count: 64 * 48))
        let painted = try painter(.age, Lines()).paint(frame, metadata: PhotoMetadata(), rotation: .none, name: "x")
        #expect(painted == frame, "the very same frame, not a copy")
    }

    @Test func aCaptionChangesOnlyTheBottomRightCornerAndNeverTheFrameItCameFrom() throws {
        let size = FrameSize(width: 400, height: 300)
        let frame = Frame(size: size, pixels: [UInt32](repeating: 0xFF_FFFF, count: size.pixelCount))
        let painted = try painter(.date, Lines()).paint(
            frame, metadata: exif("2025:05:12 10:00:00"), rotation: .none, name: "x")
        #expect(frame.pixels.allSatisfy { $0 == 0xFF_FFFF }, "a frame still held elsewhere is not drawn on")
        let changed = painted.pixels.indices.filter { painted.pixels[$0] != 0xFF_FFFF }
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0 % size.width > size.width / 3 && $0 / size.width > size.height * 3 / 4 })
    }
}
