import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding

/// The JPEG and WebP fixtures (made by `scripts/make-photo-fixtures` with cjpeg, jpegtran,
/// djpeg, cwebp, dwebp and Pillow) and their reference pixels, stored as PNG.
enum PhotoFixtures {
    static let folder = Bundle.module.resourcePath! + "/Fixtures/photos"

    static func jpeg(_ name: String) -> String { folder + "/jpeg/" + name + ".jpg" }
    static func webp(_ name: String) -> String { folder + "/webp/" + name + ".webp" }

    /// The reference pixels of `name`, read back with the PNG decoder.
    static func reference(_ name: String) throws -> Frame {
        try PNGDecoder.decode(folder + "/reference/" + name + ".png")
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Decodes `path` at the photo's own size (no scaling).
    static func decodeAtOwnSize(_ path: String, dctScaleEighths: Int? = nil, budget: DecodeMemoryBudget = .default)
        throws
        -> DecodedPhoto
    {
        let header = try PhotoDecoder.header(of: path)
        let eighths = dctScaleEighths ?? 8
        let size = FrameSize(width: (header.width * eighths + 7) / 8, height: (header.height * eighths + 7) / 8)
        let file = try PhotoFile(path: path)
        return try PhotoDecoder.decode(
            file, path: path, to: size, scale: .fit, budget: budget, dctScaleEighths: dctScaleEighths)
    }
}

/// The largest difference of any channel of any pixel; `Int.max` when the sizes differ.
func largestDifference(_ frame: Frame, _ reference: Frame) -> Int {
    guard frame.size == reference.size else { return Int.max }
    var worst = 0
    for (a, b) in zip(frame.pixels, reference.pixels) {
        let (ar, ag, ab) = channels(a)
        let (br, bg, bb) = channels(b)
        worst = max(worst, abs(ar - br), abs(ag - bg), abs(ab - bb))
    }
    return worst
}
