import AlbumDomain
import PhotoCodec
import Testing

@testable import FrameFinishing

/// The `auto` backdrop costs no second full frame: it is painted on the decoded frame's own
/// pixels (8.3 MB at 1080p that used to be copied for every photo with bars).
@Suite struct BackdropInPlaceTests {
    @Test func theBackdropIsPaintedOnTheFramesOwnPixelsNotOnACopy() {
        // A square photo fitted to a wide screen: bars left and right.
        let screen = FrameSize(width: 64, height: 24)
        var frame = Frame(size: screen, pixels: [UInt32](repeating: 0x80_8080, count: screen.pixelCount))
        let before = frame.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        frame.paintBackdrop(photo: FrameSize(width: 32, height: 32))
        let after = frame.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(after == before, "the same pixels, not a copy")
        #expect(frame.pixels[0] != 0x80_8080, "the bar was painted (darkened)")
        #expect(frame.pixels[screen.width / 2] == 0x80_8080, "the photo in the middle is untouched")
    }

    @Test func aFrameStillSharedIsPaintedOnACopyAndTheSharedOneNeverChanges() {
        let screen = FrameSize(width: 64, height: 24)
        let shared = Frame(size: screen, pixels: [UInt32](repeating: 0x80_8080, count: screen.pixelCount))
        var painted = shared
        painted.paintBackdrop(photo: FrameSize(width: 32, height: 32))
        #expect(shared.pixels.allSatisfy { $0 == 0x80_8080 })
        #expect(painted != shared && painted.pixels[0] != 0x80_8080)
    }
}
