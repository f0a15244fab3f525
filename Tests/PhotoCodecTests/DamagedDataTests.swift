import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// A photo is shown only when every row arrived and libpng reported no damage to the image data.
@Suite struct DamagedDataTests {
    static let size = FrameSize(width: 32, height: 18)

    @Test(arguments: [false, true])
    func anAdler32MismatchIsAnErrorNotAPhoto(interlaced: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photo = scratch.path("photo.png")
        try PNGEncoder.write(
            makeFrame(64, 40) { x, y in rgb(UInt32(x * 4), UInt32(y * 6), 77) }, to: photo, interlaced: interlaced)
        var chunks = try pngChunks(of: photo)
        // The zlib stream's last 4 bytes are its ADLER32: flip one bit, and give the chunk a good CRC.
        let last = try #require(chunks.lastIndex { $0.type == "IDAT" })
        chunks[last].data[chunks[last].data.count - 1] ^= 0x01
        let damaged = try scratch.write(pngFile(chunks), to: "adler.png")
        _ = try PNGDecoder.decode(photo, to: Self.size, scale: .fill)  // the undamaged photo decodes
        let error = try #require(throws: PhotoError.self) {
            try PNGDecoder.decode(damaged, to: Self.size, scale: .fill)
        }
        #expect(error.kind == .corrupt)
        #expect(error.reason.contains("damaged image data"), "\(error.reason)")
    }

    @Test(arguments: [false, true])
    func aZlibStreamThatEndsCleanlyButEarlyIsAnError(interlaced: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (width, height) = (64, 32)
        let full = rawBytes(width: width, height: height, interlaced: interlaced)
        func file(inflating count: Int) -> [UInt8] {
            let ihdr = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, interlaced ? 1 : 0]
            return pngSignature + chunk("IHDR", ihdr) + chunk("IDAT", zlibZeros(count: count)) + chunk("IEND", [])
        }
        let whole = try scratch.write(file(inflating: full), to: "whole.png")
        let frame = try PNGDecoder.decode(whole, to: Self.size, scale: .fill)
        #expect(frame.pixels.allSatisfy { $0 == 0 }, "the complete stream decodes (to black)")
        let short = try scratch.write(file(inflating: full / 2), to: "short.png")
        let error = try #require(throws: PhotoError.self) { try PNGDecoder.decode(short, to: Self.size, scale: .fill) }
        #expect(error.kind == .corrupt)
        #expect(error.reason.contains("rows arrived"), "\(error.reason)")
    }

    @Test func aFileCutAfterTheLastRowButBeforeIENDIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photo = scratch.path("photo.png")
        try PNGEncoder.write(makeFrame(16, 16) { x, _ in rgb(UInt32(x * 16), 0, 0) }, to: photo)
        let chunks = try pngChunks(of: photo)
        let cut = try scratch.write(pngFile(chunks.filter { $0.type != "IEND" }), to: "cut.png")
        _ = try PNGDecoder.decode(photo, to: Self.size, scale: .fill)
        let error = try #require(throws: PhotoError.self) { try PNGDecoder.decode(cut, to: Self.size, scale: .fill) }
        #expect(error.reason.contains("truncated"), "\(error.reason)")
    }
}

/// The size of the filtered image data of an 8-bit RGB image: one filter byte a row, per pass.
func rawBytes(width: Int, height: Int, interlaced: Bool) -> Int {
    guard interlaced else { return height * (1 + 3 * width) }
    let passes = [(0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2), (0, 1, 1, 2)]
    var total = 0
    for (x0, dx, y0, dy) in passes {
        let w = width > x0 ? (width - x0 + dx - 1) / dx : 0
        let h = height > y0 ? (height - y0 + dy - 1) / dy : 0
        if w > 0, h > 0 { total += h * (1 + 3 * w) }
    }
    return total
}

/// One chunk of a PNG file.
struct PNGChunk {
    var type: String
    var data: [UInt8]
}

/// The chunks of the PNG file at `path`.
func pngChunks(of path: String) throws -> [PNGChunk] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var chunks: [PNGChunk] = []
    var offset = 8
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        chunks.append(PNGChunk(type: type, data: Array(bytes[offset + 8..<offset + 8 + length])))
        offset += 12 + length
    }
    return chunks
}

/// A PNG file of `chunks`, each with a correct CRC.
func pngFile(_ chunks: [PNGChunk]) -> [UInt8] {
    pngSignature + chunks.flatMap { chunk($0.type, $0.data) }
}
