import AlbumDomain
import PhotoCodec
import Testing

/// The decoder against the PngSuite conformance images and their reference pixels.
@Suite struct PngSuiteTests {
    @Test func theSuiteIsThere() {
        #expect(PngSuite.validNames.count == 161)
        #expect(PngSuite.corruptNames.count == 14)
    }

    @Test(arguments: PngSuite.validNames)
    func everyValidImageMatchesItsReference(name: String) throws {
        let reference = try PngSuite.reference(name)
        let frame = try PNGDecoder.decode(PngSuite.path(name))
        #expect(frame.size == FrameSize(width: reference.width, height: reference.height))
        var worst = 0
        for (index, pixel) in frame.pixels.enumerated() {
            let (r, g, b) = channels(pixel)
            let expected = reference.rgb[(3 * index)..<(3 * index + 3)].map(Int.init)
            worst = max(worst, abs(r - expected[0]), abs(g - expected[1]), abs(b - expected[2]))
        }
        #expect(worst <= 1, "\(name): largest difference \(worst)")
    }

    @Test(arguments: PngSuite.corruptNames)
    func everyCorruptImageIsAnError(name: String) {
        #expect(throws: PNGError.self) { try PNGDecoder.decode(PngSuite.path(name)) }
    }

    @Test func corruptImagesCarryLibpngsMessage() throws {
        let error = try #require(throws: PNGError.self) { try PNGDecoder.decode(PngSuite.path("xcsn0g01")) }
        #expect(error.kind == .corrupt)
        #expect(error.message.contains("CRC"), "\(error.message)")
        let signature = try #require(throws: PNGError.self) { try PNGDecoder.decode(PngSuite.path("xs1n0g01")) }
        #expect(signature.kind == .notPNG)
    }

    @Test func interlacedAndPlainImagesDecodeAlike() throws {
        for (plain, interlaced) in [("basn2c08", "basi2c08"), ("basn3p04", "basi3p04"), ("basn6a16", "basi6a16")] {
            #expect(
                try PNGDecoder.decode(PngSuite.path(plain)).pixels
                    == PNGDecoder.decode(PngSuite.path(interlaced)).pixels)
        }
    }
}
