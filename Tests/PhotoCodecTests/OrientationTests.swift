import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// PNGs whose eXIf Orientation says they are turned or mirrored are shown upright, and scaled
/// after turning.
@Suite struct OrientationTests {
    // Stored pixels:  A B C
    //                 D E F
    static let (a, b, c, d, e, f): (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (rgb(255, 0, 0), rgb(0, 255, 0), rgb(0, 0, 255), rgb(255, 255, 0), rgb(0, 255, 255), rgb(255, 0, 255))

    /// What a person should see for each EXIF orientation, row by row.
    static let upright: [Int: [[UInt32]]] = [
        1: [[a, b, c], [d, e, f]],
        2: [[c, b, a], [f, e, d]],
        3: [[f, e, d], [c, b, a]],
        4: [[d, e, f], [a, b, c]],
        5: [[a, d], [b, e], [c, f]],
        6: [[d, a], [e, b], [f, c]],
        7: [[f, c], [e, b], [d, a]],
        8: [[c, f], [b, e], [a, d]],
    ]

    @Test(arguments: 1...8, [true, false])
    func everyOrientationIsShownUpright(orientation: Int, bigEndian: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let stored = Frame(
            size: FrameSize(width: 3, height: 2), pixels: [Self.a, Self.b, Self.c, Self.d, Self.e, Self.f])
        let path = try writeWithOrientation(stored, orientation: orientation, bigEndian: bigEndian, in: scratch)
        let expected = try #require(Self.upright[orientation])
        let frame = try PNGDecoder.decode(
            path, to: FrameSize(width: expected[0].count, height: expected.count), scale: .fit)
        #expect(frame.pixels == expected.flatMap { $0 })
    }

    @Test func aPortraitPhotoStoredSidewaysIsCroppedAfterTurning() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Stored 200x100: red top half, blue bottom half; orientation 6 turns it into a 100x200
        // portrait with blue on the left and red on the right.
        let stored = makeFrame(200, 100) { _, y in y < 50 ? rgb(255, 0, 0) : rgb(0, 0, 255) }
        let path = try writeWithOrientation(stored, orientation: 6, bigEndian: true, in: scratch)
        let square = try PNGDecoder.decode(path, to: FrameSize(width: 100, height: 100), scale: .fill)
        #expect(square.pixels[50 * 100 + 10] == rgb(0, 0, 255))
        #expect(square.pixels[50 * 100 + 90] == rgb(255, 0, 0))
        let fitted = try PNGDecoder.decode(path, to: FrameSize(width: 160, height: 90), scale: .fit)
        #expect(fitted.pixels[45 * 160 + 10] == 0, "black bars left and right of a portrait photo")
        #expect(fitted.pixels[45 * 160 + 70] == rgb(0, 0, 255))
        #expect(fitted.pixels[45 * 160 + 90] == rgb(255, 0, 0))
    }

    /// Writes `frame` as a PNG with an eXIf chunk (before the image data) holding `orientation`.
    func writeWithOrientation(_ frame: Frame, orientation: Int, bigEndian: Bool, in scratch: Scratch) throws -> String {
        let plain = scratch.path("plain-\(orientation).png")
        try PNGEncoder.write(frame, to: plain)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? be32(UInt32(v)) : be32(UInt32(v)).reversed() }
        let header: [UInt8] = bigEndian ? Array("MM".utf8) + u16(42) : Array("II".utf8) + u16(42)
        // IFD0 with two entries: ImageDescription-like filler first, then Orientation (SHORT).
        let tiff =
            header + u32(8) + u16(2)
            + u16(0x010E) + u16(2) + u32(4) + Array("abc\0".utf8)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
            + u32(0)
        bytes.insert(contentsOf: chunk("eXIf", tiff), at: 8 + 25)
        return try scratch.write(bytes, to: "turned-\(orientation)-\(bigEndian).png")
    }
}
