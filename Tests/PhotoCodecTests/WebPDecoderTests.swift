import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// WebP through libwebp: lossy scaled by libwebp to screen size, lossless within the budget,
/// the first frame of an animation, transparency over black.
@Suite struct WebPDecoderTests {
    @Test(arguments: ["lossy", "lossless", "alpha"])
    func stillsMatchTheirReferenceAtFullSize(name: String) throws {
        let decoded = try PhotoFixtures.decodeAtOwnSize(PhotoFixtures.webp(name))
        #expect(decoded.header.format == .webp)
        // dwebp's pixels for lossy (±1); the source for lossless (exact); Pillow's compositing over
        // black for alpha (±1).
        let difference = largestDifference(decoded.frame, try PhotoFixtures.reference(name))
        #expect(difference <= (name == "lossless" ? 0 : 1), "\(name): largest difference \(difference)")
    }

    @Test func lossyIsScaledByLibwebpLikeDwebpResize() throws {
        let path = PhotoFixtures.webp("lossy")
        let frame = try PhotoDecoder.decode(path, to: FrameSize(width: 23, height: 19), scale: .fill)
        let reference = try PhotoFixtures.reference("lossy-resized")
        let difference = largestDifference(frame, reference)
        // The fill crops 45x37 to 45x37 (the aspect ratios round alike), so only the scaling differs.
        #expect(difference <= 2, "largest difference \(difference)")
    }

    @Test func losslessIsWholeImageAndKeptWithinTheBudget() throws {
        let path = PhotoFixtures.webp("lossless")
        let header = try PhotoDecoder.header(of: path)
        #expect(header.wholeImageBytes >= UInt64(45 * 37 * 4))
        let tiny = DecodeMemoryBudget(bytes: 4096)
        let error = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(path, to: FrameSize(width: 8, height: 8), scale: .fill, budget: tiny)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("decode-memory budget"), "\(error.reason)")
        _ = try PhotoDecoder.decode(path, to: FrameSize(width: 8, height: 8), scale: .fill)
    }

    @Test func anAnimationShowsItsFirstFrame() throws {
        let decoded = try PhotoFixtures.decodeAtOwnSize(PhotoFixtures.webp("animated"))
        #expect(decoded.header.isAnimated)
        #expect(largestDifference(decoded.frame, try PhotoFixtures.reference("lossless")) == 0)
    }

    @Test func truncatedAndMutatedWebPsAreRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var random = SplitMix64(seed: 5)
        for name in ["lossy", "lossless", "animated"] {
            let bytes = try PhotoFixtures.bytes(PhotoFixtures.webp(name))
            _ = try PhotoDecoder.decode(PhotoFixtures.webp(name), to: FrameSize(width: 9, height: 9), scale: .fill)
            for length in [12, 30, bytes.count / 2, bytes.count - 1] {
                let path = try scratch.write(Array(bytes.prefix(length)), to: "\(name)-\(length).webp")
                let error = try #require(throws: PhotoError.self, "\(name) cut at \(length)") {
                    try PhotoDecoder.decode(path, to: FrameSize(width: 9, height: 9), scale: .fill)
                }
                #expect(error.kind == .corrupt, "\(name) cut at \(length): \(error.reason)")
            }
            for round in 0..<40 {
                var mutated = bytes
                let at = Int(random.next() % UInt64(bytes.count))
                mutated[at] = UInt8(truncatingIfNeeded: random.next())
                let path = try scratch.write(mutated, to: "\(name)-mutant-\(round).webp")
                _ = try? PhotoDecoder.decode(path, to: FrameSize(width: 9, height: 9), scale: .fill)
            }
        }
    }
}
