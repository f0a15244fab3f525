import AlbumDomain
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// `--scale auto`: fill, unless that crops more than a fifth of the photo; then the whole
/// photo, untouched, over a blurred and darkened copy of itself.
@Suite struct BackdropTests {
    @Test func aPhotoCloseToTheScreensShapeIsFilledExactlyAsFillDoes() throws {
        // 48x32 (3:2) on 16:10: filling crops about 6 %.
        let path = PhotoFixtures.jpeg("blocks")
        let screen = FrameSize(width: 32, height: 20)
        let auto = try PhotoFramePreparer(scale: .auto).prepareFrame(for: Photo(id: PhotoID(path)), size: screen)
        let fill = try PhotoFramePreparer(scale: .fill).prepareFrame(for: Photo(id: PhotoID(path)), size: screen)
        #expect(auto.pixels == fill.pixels)
    }

    @Test(arguments: [PngSuite.path("basn2c08"), PhotoFixtures.jpeg("s420"), PhotoFixtures.webp("lossy")])
    func aPhotoThatFillingWouldCropShowsWholeOverItsBlurredSelf(path: String) throws {
        // Square (32x32) or 45x37 on a wide screen: filling would crop 40 % or more.
        let screen = FrameSize(width: 64, height: 24)
        let auto = try PhotoFramePreparer(scale: .auto).prepareFrame(for: Photo(id: PhotoID(path)), size: screen)
        let fit = try PhotoFramePreparer(scale: .fit).prepareFrame(for: Photo(id: PhotoID(path)), size: screen)
        var photoPixels = 0
        var barPixels = 0
        for (index, (shown, fitted)) in zip(auto.pixels, fit.pixels).enumerated() {
            let x = index % screen.width
            let isBar =
                fit.pixels[index / screen.width * screen.width..<(index / screen.width + 1) * screen.width]
                .prefix(x + 1).allSatisfy { $0 == 0 }
                || fit.pixels[index...].prefix(screen.width - x).allSatisfy { $0 == 0 }
            if isBar {
                barPixels += 1
                #expect(shown != 0, "the bars are filled")
                for shift: UInt32 in [0, 8, 16] { #expect(shown >> shift & 0xFF <= 112, "and darkened") }
            } else if fitted != 0 {
                photoPixels += 1
                #expect(shown == fitted, "the photo itself is untouched")
            }
        }
        #expect(photoPixels > 200 && barPixels > 200, "both parts are there: \(photoPixels), \(barPixels)")
    }

    @Test func onAMountedScreenTheBackdropFrameIsTheUprightOneTurned() throws {
        let path = PngSuite.path("basn2c08")
        let upright = try PhotoFramePreparer(scale: .auto).prepareFrame(
            for: Photo(id: PhotoID(path)), size: FrameSize(width: 40, height: 24))
        let turned = try PhotoFramePreparer(scale: .auto, rotation: .clockwise90).prepareFrame(
            for: Photo(id: PhotoID(path)), size: FrameSize(width: 24, height: 40))
        #expect(turned.pixels == upright.turned(for: .clockwise90).pixels)
    }
}
