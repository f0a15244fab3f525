import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

/// A frame for a mounted screen is the upright frame turned, pixel for pixel: the codecs turn
/// the photo in the same single step that applies its EXIF orientation.
@Suite struct RotationTests {
    /// The panel: wider than tall, so a mix-up of the axes shows.
    let panel = FrameSize(width: 24, height: 14)

    func uprightSize(for rotation: ScreenRotation) -> FrameSize {
        rotation.swapsAxes ? FrameSize(width: panel.height, height: panel.width) : panel
    }

    static let photos = [
        PngSuite.path("basn2c08"), PhotoFixtures.jpeg("s420"), PhotoFixtures.jpeg("progressive"),
        PhotoFixtures.webp("lossy"), PhotoFixtures.webp("lossless"),
    ]

    @Test(arguments: photos, ScreenRotation.allCases)
    func everyRotationIsTheUprightFrameTurned(path: String, rotation: ScreenRotation) throws {
        for scale in [ScaleMode.fill, .fit] {
            let upright = try PhotoDecoder.decode(path, to: uprightSize(for: rotation), scale: scale)
            let onPanel = try PhotoDecoder.decode(path, to: panel, scale: scale, rotation: rotation)
            #expect(onPanel.size == panel)
            #expect(onPanel.pixels == upright.turned(for: rotation).pixels, "\(path) \(scale)")
            #expect(upright.pixels.contains { $0 != 0 }, "the check compares real pixels")
        }
    }

    @Test(arguments: 1...8, ScreenRotation.allCases)
    func anEXIFTurnedPhotoOnAMountedScreenIsUprightToo(orientation: Int, rotation: ScreenRotation) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let stored = Frame(
            size: FrameSize(width: 3, height: 2), pixels: [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0x00FFFF, 0xFF00FF])
        let path = try OrientationTests().writeWithOrientation(
            stored, orientation: orientation, bigEndian: false, in: scratch)
        let upright = try PNGDecoder.decode(path, to: uprightSize(for: rotation), scale: .fill)
        let onPanel = try PNGDecoder.decode(path, to: panel, scale: .fill, rotation: rotation)
        #expect(onPanel.pixels == upright.turned(for: rotation).pixels)
    }

    /// The turn the other tests compare with (`Frame.turned`), checked by hand on six pixels: a
    /// screen mounted a quarter turn clockwise gets the picture a quarter turn anticlockwise, so
    /// that it looks upright.
    @Test func aTurnedScreenGetsThePictureTurnedBack() {
        // a b c      c f      f e d      d a
        // d e f  ->  b e  ,   c b a  ,   e b
        //            a d                 f c
        let upright = Frame(size: FrameSize(width: 3, height: 2), pixels: [0xA, 0xB, 0xC, 0xD, 0xE, 0xF])
        let tall = FrameSize(width: 2, height: 3)
        #expect(upright.turned(for: .clockwise90).size == tall)
        #expect(upright.turned(for: .clockwise90).pixels == [0xC, 0xF, 0xB, 0xE, 0xA, 0xD])
        #expect(upright.turned(for: .upsideDown).pixels == [0xF, 0xE, 0xD, 0xC, 0xB, 0xA])
        #expect(upright.turned(for: .clockwise270).size == tall)
        #expect(upright.turned(for: .clockwise270).pixels == [0xD, 0xA, 0xE, 0xB, 0xF, 0xC])
    }

    @Test func theKernelsPanelOrientationsMapToRotations() {
        #expect(ScreenRotation(panelOrientation: "Normal") == ScreenRotation.none)
        #expect(ScreenRotation(panelOrientation: "Left Side Up") == .clockwise90)
        #expect(ScreenRotation(panelOrientation: "Upside Down") == .upsideDown)
        #expect(ScreenRotation(panelOrientation: "Right Side Up") == .clockwise270)
        #expect(ScreenRotation(panelOrientation: "Sideways") == nil)
        #expect(ScreenRotation(degrees: 90) == .clockwise90)
        #expect(ScreenRotation(degrees: 45) == nil)
    }
}
