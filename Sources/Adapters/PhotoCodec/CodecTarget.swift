import AlbumDomain
import CPhotoCodecCore

/// Where and how the codec layer draws a photo: a frame of `size` (the panel's own), fitted by
/// `scale`, turned for a screen mounted with `rotation`. The corresponding C type is `baphoto_target`.
package struct CodecTarget: Sendable {
    /// The frame's size, the panel's own.
    package var size: FrameSize
    /// Fill or fit (`auto` is decided before: ``AutoScale``).
    package var scale: ScaleMode
    /// How the screen is mounted.
    package var rotation: ScreenRotation
    /// JPEG only: 0 picks the DCT scale; 1 to 8 forces `scale_num/8`.
    package var dctScaleEighths: Int
    /// PNG only: every pixel through the order-free path Adam7 photos take.
    package var wholeImage: Bool

    /// Creates a target.
    package init(
        size: FrameSize, scale: ScaleMode, rotation: ScreenRotation = .none, dctScaleEighths: Int = 0,
        wholeImage: Bool = false
    ) {
        self.size = size
        self.scale = scale
        self.rotation = rotation
        self.dctScaleEighths = dctScaleEighths
        self.wholeImage = wholeImage
    }

    /// The C target drawing into `pixels` (`size.pixelCount` of them, zeroed).
    package func codecTarget(pixels: UnsafeMutablePointer<UInt32>?) -> baphoto_target {
        baphoto_target(
            pixels: pixels, width: UInt32(size.width), height: UInt32(size.height),
            scale: scale == .fill ? BAPHOTO_SCALE_FILL : BAPHOTO_SCALE_FIT, dct_scale_eighths: Int32(dctScaleEighths),
            quarter_turns: Int32(rotation.quarterTurns), whole_image: wholeImage ? 1 : 0)
    }
}

extension PhotoFormat {
    /// The codec layer's format (`baphoto_format`): HEIC, HEIF and AVIF are all libheif's.
    package var codecFormat: baphoto_format {
        switch self {
        case .png: BAPHOTO_FORMAT_PNG
        case .jpeg: BAPHOTO_FORMAT_JPEG
        case .webp: BAPHOTO_FORMAT_WEBP
        case .heic, .heif, .avif: BAPHOTO_FORMAT_HEIF
        }
    }
}

extension String {
    /// The text of a C string buffer, up to its first NUL.
    package init(cString buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
