import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// Hostile and damaged JPEGs are refused with one reason each; a photo is shown whole or not at
/// all. Each refusal has its positive control: the undamaged file decodes in the same test.
@Suite struct JPEGHostileTests {
    static let size = FrameSize(width: 32, height: 18)

    private func decode(_ path: String, budget: DecodeMemoryBudget = .default) throws(PhotoError) -> Frame {
        try PhotoDecoder.decode(path, to: Self.size, scale: .fill, budget: budget)
    }

    /// `jpeg` with the frame header's height and width replaced.
    private func claiming(_ jpeg: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var bytes = jpeg
        let sof = try #require(
            (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) })
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    @Test func aHeaderOf65500By65500IsRefusedFromTheHeader() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let original = try PhotoFixtures.bytes(PhotoFixtures.jpeg("s420"))
        let path = try scratch.write(claiming(original, width: 65500, height: 65500), to: "huge.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(path) }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("65500x65500"), "\(error.reason)")
        _ = try decode(PhotoFixtures.jpeg("s420"))
    }

    @Test func aProgressiveJPEGOverTheBudgetIsRefusedNamingTheBudget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A 6000x5000 progressive 4:2:0 header: about 45 MB of coefficients; a 16 MB budget.
        let progressive = try PhotoFixtures.bytes(PhotoFixtures.jpeg("progressive"))
        let path = try scratch.write(claiming(progressive, width: 6000, height: 5000), to: "big.jpg")
        let error = try #require(throws: PhotoError.self) {
            try decode(path, budget: DecodeMemoryBudget(megabytes: 16))
        }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("decode-memory budget of 16 MB"), "\(error.reason)")
        _ = try decode(PhotoFixtures.jpeg("progressive"), budget: DecodeMemoryBudget(megabytes: 16))
    }

    @Test func aScanBombIsRefused() throws {
        let error = try #require(throws: PhotoError.self) { try decode(PhotoFixtures.jpeg("scan-bomb")) }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("more than 100 scans"), "\(error.reason)")
        _ = try decode(PhotoFixtures.jpeg("progressive"))
    }

    @Test(arguments: ["s420", "progressive", "arithmetic", "restart"])
    func everyTruncationIsAnError(name: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bytes = try PhotoFixtures.bytes(PhotoFixtures.jpeg(name))
        _ = try decode(PhotoFixtures.jpeg(name))
        // Cut in the headers, inside the entropy-coded data, and just before EOI.
        for length in Set([4, 20, bytes.count / 3, bytes.count / 2, bytes.count * 3 / 4, bytes.count - 2]) {
            let path = try scratch.write(Array(bytes.prefix(length)), to: "cut-\(length).jpg")
            let error = try #require(throws: PhotoError.self, "\(name) cut at \(length)") { try decode(path) }
            #expect(error.kind == .corrupt, "\(name) cut at \(length): \(error.reason)")
        }
    }

    @Test func corruptEntropyDataIsAnErrorNotAGreyPatch() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var bytes = try PhotoFixtures.bytes(PhotoFixtures.jpeg("restart"))
        // Overwrite entropy data in the middle with a restart marker out of sequence and zeros:
        // libjpeg only warns ("Corrupt JPEG data") and would fill grey.
        let sos = try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let middle = (sos + bytes.count) / 2
        bytes.replaceSubrange(middle..<(middle + 6), with: [0xFF, 0xD5, 0, 0, 0, 0])
        let path = try scratch.write(bytes, to: "damaged.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(path) }
        #expect(error.kind == .corrupt)
        #expect(error.reason.contains("libjpeg"), "\(error.reason)")
    }

    @Test func paddingBeforeTheEndMarkerIsShownButPaddingInsideTheDataIsNot() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Some cameras write a few bytes between the last scan and EOI: every block is there.
        let bytes = try PhotoFixtures.bytes(PhotoFixtures.jpeg("s420"))
        // 64 zeros: libjpeg reads a few ahead, then warns "58 extraneous bytes before marker 0xd9".
        let padding = [UInt8](repeating: 0, count: 64) + [0xFF, 0xD9]
        let padded = try scratch.write(Array(bytes.dropLast(2)) + padding, to: "padded.jpg")
        let frame = try decode(padded)
        #expect(frame.pixels == (try decode(PhotoFixtures.jpeg("s420"))).pixels)
        // 64 bytes that are not padding (leftover data of a damaged file) before EOI: damage.
        let leftover = [UInt8](repeating: 0x5A, count: 64) + [0xFF, 0xD9]
        let stray = try scratch.write(Array(bytes.dropLast(2)) + leftover, to: "stray.jpg")
        let strayError = try #require(throws: PhotoError.self) { try decode(stray) }
        #expect(strayError.reason.contains("extraneous bytes"), "\(strayError.reason)")
        // 0xFF padding is padding too; more than 4 KB of it is not.
        let ones = try scratch.write(
            Array(bytes.dropLast(2)) + [UInt8](repeating: 0xFF, count: 300) + [0xFF, 0xD9], to: "ones.jpg")
        _ = try decode(ones)
        let long = try scratch.write(
            Array(bytes.dropLast(2)) + [UInt8](repeating: 0, count: 5000) + [0xFF, 0xD9], to: "long.jpg")
        #expect(throws: PhotoError.self) { try decode(long) }
        // The same bytes in place of the last quarter of the entropy data: damage, not padding.
        let cut = bytes.count * 3 / 4
        let damaged = try scratch.write(Array(bytes.prefix(cut)) + padding, to: "short.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(damaged) }
        #expect(error.kind == .corrupt, "\(error.reason)")
    }

    @Test func aJPEGOfAnotherPrecisionIsUnsupportedNotCorrupt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var bytes = try PhotoFixtures.bytes(PhotoFixtures.jpeg("s420"))
        let sof = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 4] = 16
        let path = try scratch.write(bytes, to: "sixteen.jpg")
        let error = try #require(throws: PhotoError.self) { try decode(path) }
        #expect(error.kind == .unsupportedFeature, "\(error.reason)")
        #expect(error.reason.hasPrefix("unsupported JPEG"), "\(error.reason)")
    }

    @Test func seededRandomMutationsNeverCrashAndAreDecodedOrRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var random = SplitMix64(seed: 11)
        var refused = 0
        var shown = 0
        for name in ["s420", "progressive", "arithmetic", "cmyk", "multiscan"] {
            let original = try PhotoFixtures.bytes(PhotoFixtures.jpeg(name))
            for round in 0..<60 {
                var bytes = original
                for _ in 0...(random.next() % 4) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] = UInt8(truncatingIfNeeded: random.next())
                }
                let path = try scratch.write(bytes, to: "\(name)-\(round).jpg")
                do {
                    _ = try decode(path)
                    shown += 1
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused + shown == 300)
        #expect(refused > 0, "mutations are refused")
    }
}
