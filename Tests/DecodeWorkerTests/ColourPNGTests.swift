import AlbumDomain
import CColourFixtures
import DecodeSandbox
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// Colour management of PNG and WebP: an iCCP or ICCP profile is converted like a JPEG's (the same
/// C function), in the worker and in process; a damaged iCCP leaves the photo shown as sRGB.
@Suite struct ColourPNGTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2)

    @Test func aDisplayP3PNGIsConvertedLikeJpgicc() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let profile = ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        let png = try Self.png(in: folder, name: "p3", iccp: profile)
        let plain = try Self.png(in: folder, name: "plain", iccp: nil)
        let jpeg = try ColourTests.jpeg(in: folder, name: "p3", profile: profile)
        let worker = try ColourTests.expectConvertedLikeJpgicc(
            png, jpeg: jpeg, plain: plain, in: folder, size: size, pool: pool)
        #expect(worker.metadata.colourProfile == "Display P3")
    }

    @Test func aLosslessWebPWithICCPIsConvertedLikeThePNG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Self.png(in: folder, name: "p3", iccp: ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3))
        let webp = folder.file("p3.webp")
        try WorkerSupport.run(["/usr/bin/cwebp", "-quiet", "-lossless", "-metadata", "icc", png, "-o", webp])
        let expected = try PhotoDecoder.decode(png, to: size, scale: .fill)
        #expect(try PhotoDecoder.decode(webp, to: size, scale: .fill).pixels == expected.pixels)
        let worker = try WorkerSupport.decode(webp, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == expected.pixels)
        #expect(worker.metadata.colourProfile == "Display P3")
    }

    @Test func aDamagedICCPIsIgnoredAndThePhotoShown() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = try Self.png(in: folder, name: "damaged", iccp: [UInt8](repeating: 0x5a, count: 600))
        let plain = try PhotoDecoder.decode(try Self.png(in: folder, name: "plain", iccp: nil), to: size, scale: .fill)
        #expect(try PhotoDecoder.decode(png, to: size, scale: .fill).pixels == plain.pixels)
        let worker = try WorkerSupport.decode(png, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == plain.pixels)
        #expect(worker.metadata.colourIgnored?.hasPrefix("libpng: iCCP") == true, "\(worker.metadata)")
    }

    /// The patches as an 8-bit RGB PNG, with an iCCP chunk holding `iccp` when given.
    static func png(in folder: TemporaryFolder, name: String, iccp: [UInt8]?) throws -> String {
        let path = folder.file(name + ".png")
        let ppm = ColourTests.patches()
        let header = Array("P6\n\(ColourTests.patch * 4) \(ColourTests.patch * 2)\n255\n".utf8).count
        var pixels: [UInt32] = []
        for offset in stride(from: header, to: ppm.count, by: 3) {
            let red = UInt32(ppm[offset]) << 16
            let green = UInt32(ppm[offset + 1]) << 8
            pixels.append(red | green | UInt32(ppm[offset + 2]))
        }
        try PNGEncoder.write(
            Frame(size: FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2), pixels: pixels),
            to: path)
        guard let iccp else { return path }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let chunk = Self.chunk("iCCP", Array("fixture".utf8) + [0, 0] + Self.storedZlib(iccp))
        bytes.insert(contentsOf: chunk, at: 33)  // after the signature and IHDR
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `data` as a zlib stream of one stored (uncompressed) deflate block.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        var out: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xff), UInt8(length >> 8)]
        out += [UInt8(~length & 0xff), UInt8(~length >> 8)] + data
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }
}
