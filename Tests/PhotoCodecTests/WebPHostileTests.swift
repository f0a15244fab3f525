import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// Hostile WebPs: everything libwebp holds beyond a few rows is counted in the decode budget
/// before decoding (a lossy image's alpha plane, a lossless image's pixels), and only the first
/// frame of an animation is read, however many frames follow. Each file is made here.
@Suite struct WebPHostileTests {
    static let size = FrameSize(width: 32, height: 18)

    private func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    private func chunk(_ fourcc: String, _ data: [UInt8]) -> [UInt8] {
        Array(fourcc.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
    }

    private func riff(_ chunks: [UInt8]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    /// lossy.webp's VP8 chunk (45x37), optionally claiming another size in its frame header.
    private func vp8Chunk(width: Int = 45, height: Int = 37) throws -> [UInt8] {
        var bytes = Array(try PhotoFixtures.bytes(PhotoFixtures.webp("lossy"))[12...])
        // Chunk header (8), frame tag (3), start code 9d 01 2a (3), then 14-bit width and height.
        bytes[14] = UInt8(width & 0xFF)
        bytes[15] = UInt8(width >> 8)
        bytes[16] = UInt8(height & 0xFF)
        bytes[17] = UInt8(height >> 8)
        return bytes
    }

    /// A lossy WebP with an uncompressed alpha plane, fully opaque.
    private func lossyWithAlpha(width: Int = 45, height: Int = 37) throws -> [UInt8] {
        let vp8x = chunk("VP8X", [0x10, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
        let alpha = chunk("ALPH", [0] + [UInt8](repeating: 255, count: 45 * 37))
        return riff(vp8x + alpha + (try vp8Chunk(width: width, height: height)))
    }

    private func decode(_ path: String, budget: DecodeMemoryBudget = .default) throws(PhotoError) -> DecodedPhoto {
        let file = try PhotoFile(path: path)
        return try PhotoDecoder.decode(file, path: path, to: Self.size, scale: .fill, budget: budget)
    }

    @Test func aLossyImagesAlphaPlaneIsCountedInTheBudget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let small = try scratch.write(try lossyWithAlpha(), to: "alpha.webp")
        let photo = try decode(small)
        #expect(photo.header.wholeImageBytes >= UInt64(45 * 37))
        #expect(photo.frame.pixels == (try decode(PhotoFixtures.webp("lossy"))).frame.pixels)
        // The same claiming 8000x6000: a 48 MB alpha plane, over a 32 MB budget.
        let budget = DecodeMemoryBudget(megabytes: 32)
        let big = try scratch.write(try lossyWithAlpha(width: 8000, height: 6000), to: "big-alpha.webp")
        let error = try #require(throws: PhotoError.self) { try PhotoDecoder.header(of: big, budget: budget) }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("transparent WebP of 8000x6000"), "\(error.reason)")
        // Without alpha the same size needs no whole-image memory: only its bytes are held.
        let opaque = try scratch.write(riff(try vp8Chunk(width: 8000, height: 6000)), to: "big.webp")
        let header = try PhotoDecoder.header(of: opaque, budget: budget)
        #expect(header.wholeImageBytes < 4096)
    }

    @Test func aLosslessImageCountsFiveBytesAPixel() throws {
        let header = try PhotoDecoder.header(of: PhotoFixtures.webp("lossless"))
        #expect(header.wholeImageBytes >= UInt64(45 * 37 * 5))
    }

    @Test func onlyTheFirstFrameOfAnAnimationIsRead() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let animated = try PhotoFixtures.bytes(PhotoFixtures.webp("animated"))
        // The last ANMF chunk repeated 20,000 times (about 10 MB) after the file's own frames.
        let anmf = try #require(
            (12..<(animated.count - 4)).last { Array(animated[$0..<($0 + 4)]) == Array("ANMF".utf8) })
        let frame = Array(animated[anmf...])
        var chunks = Array(animated[12...])
        chunks.reserveCapacity(chunks.count + frame.count * 20_000)
        for _ in 0..<20_000 { chunks.append(contentsOf: frame) }
        let path = try scratch.write(riff(chunks), to: "many.webp")
        let photo = try decode(path, budget: DecodeMemoryBudget(megabytes: 1))
        #expect(photo.header.isAnimated)
        #expect(photo.header.wholeImageBytes < 64 * 1024)
        #expect(photo.frame.pixels == (try decode(PhotoFixtures.webp("animated"))).frame.pixels)
    }

    @Test func aFileWithoutAnImageIsCorrupt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Only metadata chunks; then an image chunk that runs past the end of the file.
        let empty = try scratch.write(riff(chunk("EXIF", [1, 2, 3, 4]) + chunk("XMP ", [5, 6])), to: "empty.webp")
        let short = try scratch.write(riff(Array(try vp8Chunk().dropLast(40))), to: "short.webp")
        for path in [empty, short] {
            let error = try #require(throws: PhotoError.self) { try decode(path) }
            #expect(error.kind == .corrupt, "\(error.reason)")
        }
    }
}
