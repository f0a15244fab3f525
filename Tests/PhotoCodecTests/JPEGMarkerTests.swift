import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// The JPEG codec's own marker processor: it keeps the first Exif segment and the ICC profile's
/// chunks only, skips every other APPn and COM marker unread, caps their count, and hands the
/// kept bytes to the caller as ``PhotoMetadata``. Each file is made here from a fixture.
@Suite struct JPEGMarkerTests {
    static let size = FrameSize(width: 32, height: 18)

    private func decode(_ path: String, budget: DecodeMemoryBudget = .default) throws(PhotoError) -> DecodedPhoto {
        let file = try PhotoFile(path: path)
        return try PhotoDecoder.decode(file, path: path, to: Self.size, scale: .fill, budget: budget)
    }

    /// An APPn/COM segment: marker, big-endian length (itself included), payload.
    private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A little-endian TIFF holding one Orientation entry.
    private func tiff(orientation: Int) -> [UInt8] {
        Array("II".utf8) + [42, 0, 8, 0, 0, 0, 1, 0] + [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0]
            + [0, 0, 0, 0]
    }

    private func exif(orientation: Int) -> [UInt8] {
        segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff(orientation: orientation))
    }

    private func iccChunk(_ sequence: Int, of count: Int, _ bytes: [UInt8]) -> [UInt8] {
        segment(0xE2, Array("ICC_PROFILE".utf8) + [0, UInt8(sequence), UInt8(count)] + bytes)
    }

    /// The fixture `name` with `segments` inserted right after its SOI.
    private func withSegments(_ segments: [UInt8], in name: String = "s420") throws -> [UInt8] {
        let jpeg = try PhotoFixtures.bytes(PhotoFixtures.jpeg(name))
        return [0xFF, 0xD8] + segments + jpeg.dropFirst(2)
    }

    @Test func aHundredThousandEmptyMarkersAreRefusedAsAMarkerBomb() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = segment(0xE1, [])
        var segments: [UInt8] = []
        segments.reserveCapacity(empty.count * 100_000)
        for _ in 0..<100_000 { segments.append(contentsOf: empty) }
        let path = try scratch.write(try withSegments(segments), to: "bomb.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(path) }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("more than 1000 metadata markers"), "\(error.reason)")
        let header = try #require(throws: PhotoError.self) { try PhotoDecoder.header(of: path) }
        #expect(header.kind == .tooLarge)
        // Positive control: 999 comments and APP markers of every kind are skipped and the photo shown.
        let mixed = (0..<999).flatMap { segment([0xFE, 0xE3, 0xE1, 0xED][$0 % 4], Array("x\($0)".utf8)) }
        let allowed = try scratch.write(try withSegments(mixed), to: "allowed.jpg")
        #expect(try decode(allowed).frame.pixels == (try decode(PhotoFixtures.jpeg("s420"))).frame.pixels)
    }

    @Test func largeSegmentsAreSkippedNotHeld() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 200 XMP-like APP1 segments of 64 KB (13 MB) before the image; a 1 MB budget.
        let big = segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + [UInt8](repeating: 0x41, count: 65_000))
        var segments: [UInt8] = []
        segments.reserveCapacity(big.count * 200)
        for _ in 0..<200 { segments.append(contentsOf: big) }
        let path = try scratch.write(try withSegments(segments), to: "xmp.jpg")
        let photo = try decode(path, budget: DecodeMemoryBudget(megabytes: 1))
        #expect(photo.header.wholeImageBytes == 0)
        #expect(photo.metadata == PhotoMetadata())
    }

    @Test func theFirstExifSegmentIsKeptAndGivesTheOrientation() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write(try withSegments(exif(orientation: 6) + exif(orientation: 3)), to: "exif.jpg")
        let photo = try decode(path)
        #expect(photo.metadata.exif == tiff(orientation: 6))
        #expect(photo.header.orientation == 6)
        #expect(photo.metadata.icc == nil)
        #expect(photo.header.wholeImageBytes == UInt64(tiff(orientation: 6).count))
    }

    @Test func iccChunksAreJoinedInTheirOrder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let parts: [[UInt8]] = [Array(repeating: 1, count: 3000), Array(repeating: 2, count: 10), [3, 3, 3]]
        // Stored out of order, with an Exif segment between them.
        let segments =
            iccChunk(2, of: 3, parts[1]) + exif(orientation: 1) + iccChunk(1, of: 3, parts[0])
            + iccChunk(3, of: 3, parts[2])
        let path = try scratch.write(try withSegments(segments), to: "icc.jpg")
        let photo = try decode(path)
        #expect(photo.metadata.icc == parts.flatMap { $0 })
        #expect(photo.metadata.exif == tiff(orientation: 1))
    }

    @Test(arguments: ["missing", "repeated", "counts disagree", "number zero", "over 4 MB"])
    func aProfileWithBadChunksIsLeftOutAndThePhotoShown(fault: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let chunk = [UInt8](repeating: 7, count: 100)
        let full = [UInt8](repeating: 9, count: 65_000)
        let segments: [UInt8] =
            switch fault {
            case "missing": iccChunk(1, of: 3, chunk) + iccChunk(3, of: 3, chunk)
            case "repeated": iccChunk(1, of: 2, chunk) + iccChunk(1, of: 2, chunk) + iccChunk(2, of: 2, chunk)
            case "counts disagree": iccChunk(1, of: 2, chunk) + iccChunk(2, of: 3, chunk)
            case "number zero": iccChunk(0, of: 1, chunk) + iccChunk(1, of: 1, chunk)
            default: (1...66).flatMap { iccChunk($0, of: 66, full) }
            }
        let path = try scratch.write(try withSegments(segments), to: "bad-icc.jpg")
        let photo = try decode(path)
        #expect(photo.metadata.icc == nil, "\(fault)")
        #expect(photo.frame.pixels == (try decode(PhotoFixtures.jpeg("s420"))).frame.pixels)
    }

    @Test func adobeAndJFIFMarkersStillDecideTheColours() throws {
        // The processor replaces libjpeg's for APP0 and APP14: CMYK (Adobe, inverted) and YCCK
        // must still match their references, as must a JFIF file.
        for name in ["cmyk", "ycck", "s444"] {
            let decoded = try PhotoFixtures.decodeAtOwnSize(PhotoFixtures.jpeg(name))
            #expect(largestDifference(decoded.frame, try PhotoFixtures.reference(name)) <= 2, "\(name)")
        }
    }

    @Test func aMarkerWithALengthBelowTwoIsCorrupt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write(try withSegments([0xFF, 0xE5, 0x00, 0x01]), to: "short.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(path) }
        #expect(error.kind == .corrupt, "\(error.reason)")
    }

    @Test func aWebPsExifAndICCPChunksAreItsMetadata() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let lossy = try PhotoFixtures.bytes(PhotoFixtures.webp("lossy"))
        let header = try PhotoDecoder.header(of: PhotoFixtures.webp("lossy"))
        let profile = [UInt8](repeating: 5, count: 301)
        let exifChunk = Array("Exif".utf8) + [0, 0] + tiff(orientation: 1)
        let path = try scratch.write(
            webpWith(lossy, width: header.width, height: header.height, icc: profile, exif: exifChunk), to: "meta.webp")
        let photo = try decode(path)
        #expect(photo.metadata.icc == profile)
        #expect(photo.metadata.exif == tiff(orientation: 1))
        #expect(try decode(PhotoFixtures.webp("lossy")).metadata == PhotoMetadata())
    }

    /// A VP8X WebP: the simple file's VP8 chunk with an ICCP chunk before it and EXIF after it.
    private func webpWith(_ simple: [UInt8], width: Int, height: Int, icc: [UInt8], exif: [UInt8]) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func chunk(_ fourcc: String, _ data: [UInt8]) -> [UInt8] {
            Array(fourcc.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
        }
        let flags: [UInt8] = [0x20 | 0x08, 0, 0, 0]  // ICC and EXIF present
        let vp8x = chunk("VP8X", flags + le(width - 1, 3) + le(height - 1, 3))
        let image: [UInt8] = Array(simple[12...])
        let body: [UInt8] = Array("WEBP".utf8) + vp8x + chunk("ICCP", icc) + image + chunk("EXIF", exif)
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }
}
