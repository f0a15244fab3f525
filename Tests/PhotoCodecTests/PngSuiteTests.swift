import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

/// The decoder against the PngSuite conformance images and their reference pixels (the samples
/// as stored: PngSuite's gAMA without cHRM is not colour-managed).
@Suite struct PngSuiteTests {
    /// The images with cHRM (sRGB's primaries and white) and gAMA 1.0: linear light, converted to sRGB.
    static let linearLight: Set<String> = ["ccwn2c08", "ccwn3p08"]

    /// An 8-bit linear-light value in sRGB's encoding, by sRGB's formula.
    static func srgbFromLinear(_ value: Int) -> Int {
        let linear = Double(value) / 255
        let encoded = linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return Int((encoded * 255).rounded())
    }

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
        let linear = Self.linearLight.contains(name)
        for (index, pixel) in frame.pixels.enumerated() {
            let (r, g, b) = channels(pixel)
            let stored = reference.rgb[(3 * index)..<(3 * index + 3)].map(Int.init)
            let expected = linear ? stored.map(Self.srgbFromLinear) : stored
            worst = max(worst, abs(r - expected[0]), abs(g - expected[1]), abs(b - expected[2]))
        }
        #expect(worst <= 1, "\(name): largest difference \(worst)")
    }

    @Test(arguments: PngSuite.corruptNames)
    func everyCorruptImageIsAnError(name: String) {
        #expect(throws: PhotoError.self) { try PNGDecoder.decode(PngSuite.path(name)) }
    }

    @Test func corruptImagesCarryLibpngsMessage() throws {
        let error = try #require(throws: PhotoError.self) { try PNGDecoder.decode(PngSuite.path("xcsn0g01")) }
        #expect(error.kind == .corrupt)
        #expect(error.reason.contains("CRC"), "\(error.reason)")
        let signature = try #require(throws: PhotoError.self) { try PNGDecoder.decode(PngSuite.path("xs1n0g01")) }
        #expect(signature.kind == .unrecognized)
    }

    @Test func interlacedAndPlainImagesDecodeAlike() throws {
        for (plain, interlaced) in [("basn2c08", "basi2c08"), ("basn3p04", "basi3p04"), ("basn6a16", "basi6a16")] {
            #expect(
                try PNGDecoder.decode(PngSuite.path(plain)).pixels
                    == PNGDecoder.decode(PngSuite.path(interlaced)).pixels)
        }
    }
}
