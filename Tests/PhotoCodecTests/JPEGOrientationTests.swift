import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// JPEGs whose EXIF Orientation (APP1) says they are turned or mirrored are shown upright,
/// scaled after turning, as phones write portrait photos.
@Suite struct JPEGOrientationTests {
    @Test(arguments: 1...8, [true, false])
    func everyOrientationIsShownUpright(orientation: Int, bigEndian: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // blocks.jpg is 48x32: 16x16 blocks A B C / D E F, the PNG orientation tests' picture.
        let bytes = try withOrientation(
            PhotoFixtures.bytes(PhotoFixtures.jpeg("blocks")), orientation, bigEndian: bigEndian)
        let path = try scratch.write(bytes, to: "turned-\(orientation).jpg")
        let expected = try #require(OrientationTests.upright[orientation])
        let size = FrameSize(width: expected[0].count, height: expected.count)
        let file = try PhotoFile(path: path)
        let decoded = try PhotoDecoder.decode(file, path: path, to: size, scale: .fit)
        #expect(decoded.header.orientation == orientation)
        for (index, pixel) in decoded.frame.pixels.enumerated() {
            let (r, g, b) = channels(pixel)
            let (er, eg, eb) = channels(expected.flatMap { $0 }[index])
            #expect(max(abs(r - er), abs(g - eg), abs(b - eb)) <= 8, "orientation \(orientation), pixel \(index)")
        }
    }

    @Test func aPortraitPhotoStoredSidewaysIsCroppedAfterTurning() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Orientation 6: the stored 48x32 landscape is a 32x48 portrait; filling a 32x32 square
        // keeps its middle, so the left column shows D (yellow) and the right column A (red).
        let path = try scratch.write(
            withOrientation(PhotoFixtures.bytes(PhotoFixtures.jpeg("blocks")), 6, bigEndian: true), to: "portrait.JPG")
        let square = try PhotoDecoder.decode(path, to: FrameSize(width: 32, height: 32), scale: .fill)
        let (lr, lg, lb) = channels(square.pixels[4 * 32 + 2])
        #expect(lr > 200 && lg > 200 && lb < 50, "yellow top left")
        let (rr, rg, rb) = channels(square.pixels[4 * 32 + 29])
        #expect(rr > 200 && rg < 50 && rb < 50, "red top right")
    }

    /// Inserts an APP1 Exif segment holding `orientation` right after SOI.
    private func withOrientation(_ jpeg: [UInt8], _ orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? be32(UInt32(v)) : be32(UInt32(v)).reversed() }
        let tiff =
            Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(8) + u16(2)
            + u16(0x010F) + u16(2) + u32(4) + Array("abc\0".utf8)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
            + u32(0)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }
}
