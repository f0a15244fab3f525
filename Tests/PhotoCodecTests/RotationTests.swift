import AlbumDomain
import Foundation
import PhotoCodec
import Testing

/// A frame for a mounted screen is the upright frame turned, pixel for pixel: the codecs turn
/// the photo in the same single step that applies its EXIF orientation.
@Suite struct RotationTests {
    /// The panel: wider than tall, so a mix-up of the axes shows.
    let panel = FrameSize(width: 24, height: 14)

    /// `upright` (the picture as a person should see it) as the panel of a screen mounted
    /// with `rotation` must hold it: panel pixel (x, y) shows the upright pixel it faces.
    static func turned(_ upright: Frame, for rotation: ScreenRotation, panel: FrameSize) -> [UInt32] {
        let (width, height) = (panel.width, panel.height)
        var pixels = [UInt32](repeating: 0, count: panel.pixelCount)
        for y in 0..<height {
            for x in 0..<width {
                let (ux, uy): (Int, Int) =
                    switch rotation {
                    case .none: (x, y)
                    case .clockwise90: (height - 1 - y, x)
                    case .upsideDown: (width - 1 - x, height - 1 - y)
                    case .clockwise270: (y, width - 1 - x)
                    }
                pixels[y * width + x] = upright.pixels[uy * upright.size.width + ux]
            }
        }
        return pixels
    }

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
            #expect(onPanel.pixels == Self.turned(upright, for: rotation, panel: panel), "\(path) \(scale)")
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
        #expect(onPanel.pixels == Self.turned(upright, for: rotation, panel: panel))
    }

    /// The reference above, checked by hand on six pixels: a screen mounted a quarter turn
    /// clockwise gets the picture a quarter turn anticlockwise, so that it looks upright.
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
        for rotation in ScreenRotation.allCases {
            #expect(
                Self.turned(upright, for: rotation, panel: upright.turned(for: rotation).size)
                    == upright.turned(for: rotation).pixels)
        }
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
