import AlbumDomain
import Foundation
import PhotoCodec
import Testing

@testable import FrameFinishing

/// The one frame recipe every path takes: the sizes and turn the decoder is asked for, and the
/// finish (the `auto` backdrop, then the turn) on the frame a decoder returns.
@Suite struct FrameRecipeTests {
    static let panel = FrameSize(width: 64, height: 24)

    @Test func theDecoderMakesThePanelsFrameExceptForAutosFitWhichIsUpright() {
        let turned = FrameRecipe(scale: .auto, rotation: .clockwise90)
        #expect(turned.decodedSize(panel: Self.panel, scaleUsed: .fit) == FrameSize(width: 24, height: 64))
        #expect(turned.decoderRotation(scaleUsed: .fit) == .none)
        #expect(turned.decodedSize(panel: Self.panel, scaleUsed: .fill) == Self.panel)
        #expect(turned.decoderRotation(scaleUsed: .fill) == .clockwise90)
        for scale in [ScaleMode.fit, .fill] {
            let recipe = FrameRecipe(scale: scale, rotation: .clockwise270)
            #expect(recipe.decodedSize(panel: Self.panel, scaleUsed: scale) == Self.panel)
            #expect(recipe.decoderRotation(scaleUsed: scale) == .clockwise270)
        }
        #expect(
            FrameRecipe(scale: .auto, rotation: .upsideDown).decodedSize(panel: Self.panel, scaleUsed: .fit)
                == Self.panel)
    }

    /// A photo file for the recipe to open (it never reads it: the decode closure stands in for the decoder).
    private func withPhoto(_ body: (Photo) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "recipe-\(UUID().uuidString).png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x89, 0x50, 0x4E, 0x47])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(Photo(id: PhotoID(path)))
    }

    /// A `width`x`height` frame whose every pixel names its place: (x << 12) | y.
    private func numbered(_ width: Int, _ height: Int) -> Frame {
        Frame(
            size: FrameSize(width: width, height: height),
            pixels: (0..<height).flatMap { y in (0..<width).map { x in UInt32(x << 12 | y) } })
    }

    @Test func fillAndFitFramesAreTheDecodersOwn() throws {
        try withPhoto { photo in
            for scale in [ScaleMode.fill, .fit, .auto] {
                let decoded = numbered(Self.panel.width, Self.panel.height)
                let frame = try FrameRecipe(scale: scale, rotation: .clockwise90).prepare(photo, panel: Self.panel) {
                    _, _ in
                    DecodedFrame(
                        frame: decoded, scaleUsed: scale == .fit ? .fit : .fill, photoSize: Self.panel,
                        metadata: PhotoMetadata())
                }
                #expect(frame == decoded, "\(scale): turned by the decoder, not again")
            }
        }
    }

    @Test func autosFitGetsItsBackdropUprightThenIsTurnedForThePanel() throws {
        // A portrait photo (12x24 upright) on a panel mounted a quarter turn: upright, the screen
        // is 24x64, the photo fills its width, bars above and below.
        try withPhoto { photo in
            let upright = numbered(24, 64)
            let frame = try FrameRecipe(scale: .auto, rotation: .clockwise90).prepare(photo, panel: Self.panel) {
                _, _ in
                DecodedFrame(
                    frame: upright, scaleUsed: .fit, photoSize: FrameSize(width: 12, height: 24),
                    metadata: PhotoMetadata())
            }
            #expect(frame.size == Self.panel)
            // Mounted clockwise 90 ("Left Side Up"), the panel's pixel (x, y) faces the upright
            // pixel (23 - y, x). The photo fills upright rows 8 to 55 (24x48), bars above and below.
            func shown(_ x: Int, _ y: Int) -> UInt32 { frame.pixels[y * Self.panel.width + x] }
            for (x, y) in [(32, 0), (20, 12), (47, 23), (16, 5)] {
                #expect(shown(x, y) == UInt32((23 - y) << 12 | x), "photo pixel at panel (\(x), \(y))")
            }
            for (x, y) in [(0, 0), (5, 12), (63, 23), (60, 3)] {
                #expect(shown(x, y) != UInt32((23 - y) << 12 | x), "bar pixel at panel (\(x), \(y)) painted")
            }
        }
    }

    @Test func theBackdropIsPaintedOnTheDecodersPixelsNotOnACopy() throws {
        try withPhoto { photo in
            var decodersPixels: UInt = 0
            let frame = try FrameRecipe(scale: .auto).prepare(photo, panel: Self.panel) { _, _ in
                let decoded = numbered(Self.panel.width, Self.panel.height)
                decodersPixels = decoded.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                return DecodedFrame(
                    frame: decoded, scaleUsed: .fit, photoSize: FrameSize(width: 24, height: 24),
                    metadata: PhotoMetadata())
            }
            #expect(frame.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == decodersPixels)
            #expect(frame.pixels[0] != 0, "the bar was painted")
        }
    }

    @Test func aDecodeNotOfThePanelsSizeIsRefused() throws {
        try withPhoto { photo in
            // A fill frame of the upright size under a quarter turn: half a screen, refused.
            let error = #expect(throws: PhotoError.self) {
                try FrameRecipe(scale: .fill, rotation: .clockwise90).prepare(photo, panel: Self.panel) { _, _ in
                    DecodedFrame(
                        frame: numbered(24, 64), scaleUsed: .fill, photoSize: Self.panel, metadata: PhotoMetadata())
                }
            }
            #expect(error?.kind == .decoderFailed)
            #expect(error?.reason == "the decoder made a 24x64 frame for a 64x24 screen")
        }
    }
}
