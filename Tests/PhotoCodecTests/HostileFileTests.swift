import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// Files made to exhaust memory or time are refused or cost no more than an honest photo.
@Suite struct HostileFileTests {
    @Test func aHundredThousandSquarePhotoIsRefusedFromItsHeader() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write(claimedSizePNG(width: 100_000, height: 100_000), to: "wide.png")
        let error = try #require(throws: PhotoError.self) {
            try PNGDecoder.decode(path, to: FrameSize(width: 32, height: 18), scale: .fill)
        }
        #expect(error.kind == .tooLarge)
    }

    @Test func imageDataThatInflatesToAGigabyteIsNeverInflated() throws {
        // A 1000x1000 photo whose single IDAT chunk holds the 3 MB of rows followed by 1 GiB more
        // of zeros. BabyAlbum stops at the last row: libpng reports the rest as "extra
        // compressed data" after one small buffer and only reads (CRCs) the remaining bytes,
        // and BabyAlbum does not call png_read_end, which would look for more.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let rowBytes = 1 + 3 * 1000
        let inflated = rowBytes * 1000 + (1 << 30)
        let idat = chunk("IDAT", zlibZeros(count: inflated))
        let ihdr = be32(1000) + be32(1000) + [8, 2, 0, 0, 0]
        let path = try scratch.write(pngSignature + chunk("IHDR", ihdr) + idat + chunk("IEND", []), to: "bomb.png")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 8_000_000, "a small file: \(size) bytes")
        let frame = try PNGDecoder.decode(path, to: FrameSize(width: 100, height: 100), scale: .fill)
        #expect(frame.pixels.allSatisfy { $0 == 0 })
    }

    @Test func aTextChunkThatInflatesPastTheChunkLimitIsIgnored() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photo = scratch.path("photo.png")
        try PNGEncoder.write(makeFrame(16, 16) { x, y in rgb(UInt32(x * 16), UInt32(y * 16), 99) }, to: photo)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo)))
        // zTXt after IHDR: keyword "Comment", compression method 0, 64 MiB of zeros deflated.
        let ztxt = chunk("zTXt", Array("Comment".utf8) + [0, 0] + zlibZeros(count: 64 << 20))
        bytes.insert(contentsOf: ztxt, at: 8 + 25)
        let hostile = try scratch.write(bytes, to: "comment-bomb.png")
        let limited = PhotoLimits(maxChunkBytes: 1 << 20)
        #expect(try PNGDecoder.decode(hostile, limits: limited).pixels == PNGDecoder.decode(photo).pixels)
    }
}

/// A zlib stream of `count` zero bytes: one literal, then back-references of length 258 at
/// distance 1, in fixed-Huffman deflate blocks (about 1/160 of the inflated size).
func zlibZeros(count: Int) -> [UInt8] {
    var writer = BitWriter()
    writer.bytes = [0x78, 0x01]
    writer.write(1, bits: 1)  // BFINAL
    writer.write(1, bits: 2)  // BTYPE = fixed Huffman (LSB first)
    func code(_ value: UInt32, length: Int) {  // Huffman codes go most significant bit first
        for shift in stride(from: length - 1, through: 0, by: -1) {
            writer.write((value >> UInt32(shift)) & 1, bits: 1)
        }
    }
    func copy258() {
        code(0b1100_0101, length: 8)  // length code 285 = 258
        code(0, length: 5)  // distance code 0 = 1
    }
    code(0x30, length: 8)  // literal 0
    var remaining = count - 1
    // Copies are 13 bits: once byte-aligned, 8 of them are exactly 13 bytes, repeated.
    while !writer.isAligned, remaining >= 258 + 3 {
        copy258()
        remaining -= 258
    }
    var period = BitWriter()
    for _ in 0..<8 {
        for shift in stride(from: 7, through: 0, by: -1) { period.write((0b1100_0101 >> UInt32(shift)) & 1, bits: 1) }
        period.write(0, bits: 5)
    }
    let repeats = max(0, (remaining - 3) / (8 * 258))
    writer.bytes.reserveCapacity(writer.bytes.count + repeats * 13)
    for _ in 0..<repeats { writer.bytes.append(contentsOf: period.bytes) }
    remaining -= repeats * 8 * 258
    while remaining >= 258 + 3 || remaining == 258 {
        copy258()
        remaining -= 258
    }
    while remaining > 0 {
        code(0x30, length: 8)
        remaining -= 1
    }
    code(0, length: 7)  // end of block (256)
    writer.flush()
    let adlerB = UInt32((UInt64(count)) % 65521)
    return writer.bytes + be32(adlerB << 16 | 1)
}

struct BitWriter {
    var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var used = 0

    mutating func write(_ value: UInt32, bits: Int) {
        for bit in 0..<bits {
            current |= ((value >> UInt32(bit)) & 1) << UInt32(used)
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }
    }

    var isAligned: Bool { used == 0 }

    mutating func flush() {
        if used > 0 { bytes.append(UInt8(current)) }
        current = 0
        used = 0
    }
}
