import AlbumDomain
import PhotoCodec

/// The `auto` scale mode's backdrop: when filling the screen would crop too much of a photo,
/// the whole photo is shown over a blurred, darkened copy of itself that fills the screen, as
/// picframe and Immich Kiosk do. The copy is made from a small version of the fitted photo
/// (a few thousand pixels), so it costs one read of the photo's pixels and no full-size buffer.
package enum Backdrop {
    /// Filling may crop at most this share of a photo before the backdrop is used instead.
    package static let cropLimit = 0.2
    /// Sides of the small version, at most (pixels).
    static let smallSide = 48
    /// How much of the photo's brightness the backdrop keeps (out of 256).
    static let brightness: UInt32 = 112

    /// Where a fitted `photo` lands on `screen` (as the codecs place it: centred, rounded).
    static func fitPlacement(photo: FrameSize, screen: FrameSize) -> (x: Int, y: Int, width: Int, height: Int) {
        func roundedRatio(_ a: Int, _ b: Int, _ c: Int) -> Int { max(1, (a * b + c / 2) / c) }
        if photo.width * screen.height > photo.height * screen.width {
            let height = min(roundedRatio(photo.height, screen.width, photo.width), screen.height)
            return (0, (screen.height - height) / 2, screen.width, height)
        }
        let width = min(roundedRatio(photo.width, screen.height, photo.height), screen.width)
        return ((screen.width - width) / 2, 0, width, screen.height)
    }

    /// Paints the bars of `frame`, a `photo`-sized picture fitted onto it, with the backdrop.
    /// The line next to the photo on each side is painted only where it is black: the codecs
    /// may round the photo's place one line either way.
    static func paintBars(of frame: inout [UInt32], size: FrameSize, photo: FrameSize) {
        let place = fitPlacement(photo: photo, screen: size)
        let small = shrink(frame, size: size, region: place)
        let backdrop = darken(blur(fill(small, to: size)))
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inside =
                    x >= place.x && x < place.x + place.width && y >= place.y && y < place.y + place.height
                let onEdge =
                    x == place.x || x == place.x + place.width - 1 || y == place.y || y == place.y + place.height - 1
                guard !inside || (onEdge && frame[y * size.width + x] == 0) else { continue }
                frame[y * size.width + x] = backdrop.sample(x: x, y: y, in: size)
            }
        }
    }
}

extension Backdrop {
    /// The photo's region of `frame`, area-averaged down to at most ``smallSide`` a side.
    static func shrink(
        _ frame: [UInt32], size: FrameSize, region: (x: Int, y: Int, width: Int, height: Int)
    ) -> SmallPicture {
        let factor = max(1, (max(region.width, region.height) + smallSide - 1) / smallSide)
        let width = max(1, region.width / factor)
        let height = max(1, region.height / factor)
        var pixels = [UInt32](repeating: 0, count: width * height)
        for sy in 0..<height {
            for sx in 0..<width {
                var sums: (UInt32, UInt32, UInt32) = (0, 0, 0)
                for y in (region.y + sy * factor)..<(region.y + (sy + 1) * factor) {
                    for x in (region.x + sx * factor)..<(region.x + (sx + 1) * factor) {
                        let pixel = frame[y * size.width + x]
                        sums.0 += pixel >> 16 & 0xFF
                        sums.1 += pixel >> 8 & 0xFF
                        sums.2 += pixel & 0xFF
                    }
                }
                let count = UInt32(factor * factor)
                pixels[sy * width + sx] = (sums.0 / count) << 16 | (sums.1 / count) << 8 | sums.2 / count
            }
        }
        return SmallPicture(width: width, height: height, pixels: pixels)
    }

    /// The centre of `small` cropped to the screen's shape (the photo *filling* the screen).
    static func fill(_ small: SmallPicture, to screen: FrameSize) -> SmallPicture {
        var width = small.width
        var height = small.height
        if width * screen.height > height * screen.width {
            width = max(1, height * screen.width / screen.height)
        } else {
            height = max(1, width * screen.height / screen.width)
        }
        let x0 = (small.width - width) / 2
        let y0 = (small.height - height) / 2
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = small.pixels[(y0 + y) * small.width + x0 + x] }
        }
        return SmallPicture(width: width, height: height, pixels: pixels)
    }

    /// Three passes of a 5-pixel box blur each way: close to a Gaussian, on a few thousand pixels.
    static func blur(_ picture: SmallPicture) -> SmallPicture {
        var result = picture
        for _ in 0..<3 {
            result = boxBlur(result, horizontal: true)
            result = boxBlur(result, horizontal: false)
        }
        return result
    }

    private static func boxBlur(_ picture: SmallPicture, horizontal: Bool) -> SmallPicture {
        var out = picture
        let radius = 2
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                var sums: (UInt32, UInt32, UInt32) = (0, 0, 0)
                for offset in -radius...radius {
                    let sx = horizontal ? min(max(x + offset, 0), picture.width - 1) : x
                    let sy = horizontal ? y : min(max(y + offset, 0), picture.height - 1)
                    let pixel = picture.pixels[sy * picture.width + sx]
                    sums.0 += pixel >> 16 & 0xFF
                    sums.1 += pixel >> 8 & 0xFF
                    sums.2 += pixel & 0xFF
                }
                let count = UInt32(2 * radius + 1)
                out.pixels[y * picture.width + x] = (sums.0 / count) << 16 | (sums.1 / count) << 8 | sums.2 / count
            }
        }
        return out
    }

    /// Every channel scaled by ``brightness``/256, so the photo in front stands out.
    static func darken(_ picture: SmallPicture) -> SmallPicture {
        var out = picture
        for index in out.pixels.indices {
            let pixel = out.pixels[index]
            let r = ((pixel >> 16 & 0xFF) * brightness) >> 8
            let g = ((pixel >> 8 & 0xFF) * brightness) >> 8
            let b = ((pixel & 0xFF) * brightness) >> 8
            out.pixels[index] = r << 16 | g << 8 | b
        }
        return out
    }
}
