import CColour
import CColourFixtures
import Testing

/// The matrix-shaper fast path on a screen-size frame, which it converts in two halves on two
/// threads when a second CPU is there: the same pixels as converted in strips too small to be
/// split, the pad byte kept.
@Suite struct ColourFrameTests {
    @Test(arguments: [BACOLOUR_FIXTURE_DISPLAY_P3, BACOLOUR_FIXTURE_ADOBE_RGB])
    func aScreenSizeFrameIsConvertedAsItsStripsAre(kind: bacolour_fixture) {
        let profile = ColourTests.profile(kind)
        // 720p: over the size that is split (BACOLOUR_THREAD_MIN_PIXELS), every byte value in each channel.
        let (width, height) = (1280, 720)
        let source = (0..<(width * height)).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
        var whole = source
        let outcome = whole.withUnsafeMutableBufferPointer {
            bacolour_to_srgb(profile, profile.count, $0.baseAddress, UInt32(width), UInt32(height), UInt32(width))
        }
        #expect(outcome.result == BACOLOUR_CONVERTED)
        var strips = source
        strips.withUnsafeMutableBufferPointer { buffer in
            for top in stride(from: 0, to: height, by: 8) {
                let rows = UInt32(min(8, height - top))
                _ = bacolour_to_srgb(
                    profile, profile.count, buffer.baseAddress! + top * width, UInt32(width), rows, UInt32(width))
            }
        }
        #expect(whole == strips)
        #expect(whole != source)
        #expect(zip(whole, source).allSatisfy { $0 >> 24 == $1 >> 24 })
    }
}
