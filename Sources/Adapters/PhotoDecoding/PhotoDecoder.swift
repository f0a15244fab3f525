import AlbumDomain
import CHEIFCodec
import CPhotoCodec
import CPhotoCodecCore
import PhotoCodec

/// Decodes photos by their content: PNG with libpng, JPEG with libjpeg-turbo (scaled in the DCT
/// domain, then area-averaged), WebP with libwebp, HEIC, HEIF and AVIF with libheif. Each file is
/// opened once, safely (``PhotoFile``). This decodes in the calling process: the slideshow decodes
/// in sandboxed workers instead (`DecodeWorkerPool`, module `DecodeSandbox`).
public enum PhotoDecoder {
    /// Decodes `path` and scales it to `size` with `scale`, turned for a screen mounted with
    /// `rotation` (`size` is the panel's own).
    public static func decode(
        _ path: String, to size: FrameSize, scale: ScaleMode, limits: PhotoLimits = PhotoLimits(),
        budget: DecodeMemoryBudget = .default, rotation: ScreenRotation = .none
    ) throws(PhotoError) -> Frame {
        let file = try PhotoFile(path: path)
        return try decode(
            file, path: path, to: size, scale: scale, limits: limits, budget: budget, rotation: rotation
        ).frame
    }

    /// Decodes the opened `file` (named `path` in errors) and scales it to `size`.
    /// - Parameter dctScaleEighths: JPEG only: force `scale_num/8` instead of choosing it.
    public static func decode(
        _ file: borrowing PhotoFile, path: String, to size: FrameSize, scale: ScaleMode,
        limits: PhotoLimits = PhotoLimits(),
        budget: DecodeMemoryBudget = .default, dctScaleEighths: Int? = nil, rotation: ScreenRotation = .none
    ) throws(PhotoError) -> DecodedPhoto {
        let format = try detectDecoded(file, path: path)
        let target = CodecTarget(
            size: size, scale: scale, rotation: rotation, dctScaleEighths: dctScaleEighths ?? 0, wholeImage: false)
        return try decode(file, as: format, path: path, to: target, limits: limits.codecLimits(budget: budget))
    }

    /// Decodes the opened `file` as `format` through the codec layer's one entry point
    /// (`baphoto_decode`): the pixels, converted to sRGB, with the header and metadata of the same pass.
    package static func decode(
        _ file: borrowing PhotoFile, as format: PhotoFormat, path: String, to target: CodecTarget,
        limits: baphoto_limits
    ) throws(PhotoError) -> DecodedPhoto {
        let size = target.size
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        var header = baphoto_header()
        var metadata = baphoto_metadata()
        defer { baphoto_metadata_free(&metadata) }
        var cLimits = limits
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let descriptor = file.descriptor
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            var cTarget = target.codecTarget(pixels: buffer.baseAddress)
            return baphoto_decode(descriptor, format.codecFormat, &cLimits, &cTarget, &header, &metadata, &message)
        }
        try PhotoError.check(codecStatus: status, message: message, path: path)
        return DecodedPhoto(
            frame: Frame(size: size, pixels: pixels), header: PhotoHeader(format: format, header),
            metadata: PhotoMetadata(metadata))
    }

    /// Reads the header of `path` without decoding the pixels (for `doctor`).
    public static func header(
        of path: String, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default
    ) throws(PhotoError) -> PhotoHeader {
        try header(of: PhotoFile(path: path), path: path, limits: limits, budget: budget)
    }

    /// Reads the header of the opened `file` (named `path` in errors) without decoding the pixels.
    public static func header(
        of file: borrowing PhotoFile, path: String, limits: PhotoLimits = PhotoLimits(),
        budget: DecodeMemoryBudget = .default
    ) throws(PhotoError) -> PhotoHeader {
        let format = try detectDecoded(file, path: path)
        return try header(of: file, as: format, path: path, limits: limits.codecLimits(budget: budget))
    }

    /// Reads the header of the opened `file` as `format` through the codec layer's one entry
    /// point (`baphoto_read_header`).
    package static func header(
        of file: borrowing PhotoFile, as format: PhotoFormat, path: String, limits: baphoto_limits
    ) throws(PhotoError) -> PhotoHeader {
        var header = baphoto_header()
        var cLimits = limits
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let status = baphoto_read_header(file.descriptor, format.codecFormat, &cLimits, &header, &message)
        try PhotoError.check(codecStatus: status, message: message, path: path)
        return PhotoHeader(format: format, header)
    }

    /// The library that decodes `format` in this program and its version, as the codec layer's
    /// entry point names it ("libjpeg-turbo 2.1.5"); `nil` for a format it has no codec for.
    public static func codecVersion(of format: PhotoFormat) -> String? {
        baphoto_codec_version(format.codecFormat).map { String(cString: $0) }
    }

    /// The libheif version that decodes HEIC, HEIF and AVIF ("1.15.1").
    public static var heifVersion: String { String(cString: baphoto_heif_version()) }

    /// Whether libheif here has an AV1 decoder (dav1d or aom).
    public static let decodesAVIF = baphoto_heif_decodes_avif() != 0

    /// The format of `file`, when it is one BabyAlbum decodes; otherwise the reason why not.
    package static func detectDecoded(_ file: borrowing PhotoFile, path: String) throws(PhotoError) -> PhotoFormat {
        let format = try PhotoFormat.recognise(file, path: path)
        guard format != .avif || decodesAVIF else { throw PhotoError.unsupported(format, path: path) }
        return format
    }
}
