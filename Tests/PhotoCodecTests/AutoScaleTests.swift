import AlbumDomain
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// `--scale auto`'s decision, made by the codec layer's `baphoto_auto_scale` for the decode worker
/// and the in-process preparer alike, from real photos' headers.
@Suite struct AutoScaleTests {
    /// 48x32 (3:2).
    static let blocks = PhotoFixtures.jpeg("blocks")

    @Test func aPhotoCloseToTheScreensShapeIsFilled() throws {
        let header = try PhotoDecoder.header(of: Self.blocks)
        // On 16:10, filling crops about 6 % of a 3:2 photo.
        #expect(AutoScale.mode(for: header, screen: FrameSize(width: 32, height: 20)) == .fill)
    }

    @Test func aPhotoThatFillingWouldCropMoreThanAFifthOfIsFitted() throws {
        let header = try PhotoDecoder.header(of: Self.blocks)
        #expect(AutoScale.mode(for: header, screen: FrameSize(width: 64, height: 24)) == .fit)
    }

    @Test func cropingExactlyTheLimitStillFills() throws {
        let header = try PhotoDecoder.header(of: Self.blocks)
        // 3:2 on 75x40 (15:8) crops exactly 20 %; on 76x40, 21 %.
        #expect(AutoScale.mode(for: header, screen: FrameSize(width: 75, height: 40)) == .fill)
        #expect(AutoScale.mode(for: header, screen: FrameSize(width: 76, height: 40)) == .fit)
    }

    @Test func theEXIFOrientationTurnsThePhotoBeforeDeciding() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Stored 160x100 (16:10), shown as a 100x160 portrait by orientation 6.
        let stored = makeFrame(160, 100) { _, _ in rgb(200, 100, 50) }
        let plain = scratch.path("plain.png")
        try PNGEncoder.write(stored, to: plain)
        let turned = try OrientationTests().writeWithOrientation(stored, orientation: 6, bigEndian: false, in: scratch)
        let screen = FrameSize(width: 160, height: 100)
        #expect(AutoScale.mode(for: try PhotoDecoder.header(of: plain), screen: screen) == .fill)
        #expect(AutoScale.mode(for: try PhotoDecoder.header(of: turned), screen: screen) == .fit)
    }
}
