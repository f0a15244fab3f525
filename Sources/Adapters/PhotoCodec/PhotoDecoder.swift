import AlbumDomain
import CColour
import CHEIFCodec
import CPhotoCodec
import CPhotoCodecCore

/// What a photo's header says, whatever its format.
public struct PhotoHeader: Equatable, Sendable {
    /// The format, by content.
    public let format: PhotoFormat
    /// Width in pixels, as stored (before EXIF orientation).
    public let width: Int
    /// Height in pixels, as stored.
    public let height: Int
    /// EXIF orientation, 1 to 8 (for PNG, from its eXIf chunk).
    public let orientation: Int
    /// Bytes the decode holds beyond a few rows (checked against the ``DecodeMemoryBudget``).
    public let wholeImageBytes: UInt64
    /// JPEG: the DCT scale used, in eighths (8 = full size, 4 = 1/2, ...); 8 otherwise.
    public let dctScaleEighths: Int
    /// WebP: an animation (its first frame is shown).
    public let isAnimated: Bool
    /// PNG: Adam7 interlaced (decoded pass by pass into per-pixel sums of the frame).
    public let isInterlaced: Bool

    /// The header the codec layer (`baphoto_header`, the same for every format) filled.
    package init(format: PhotoFormat, _ header: baphoto_header) {
        self.format = format
        width = Int(header.width)
        height = Int(header.height)
        orientation = Int(header.orientation)
        wholeImageBytes = header.whole_image_bytes
        dctScaleEighths = Int(header.dct_scale_eighths)
        isAnimated = header.animated != 0
        isInterlaced = header.interlaced != 0
    }
}

/// A decoded photo: the frame, what its header said, and its metadata.
public struct DecodedPhoto: Sendable {
    /// The photo scaled to the screen.
    public let frame: Frame
    /// The photo's header.
    public let header: PhotoHeader
    /// The photo's metadata: EXIF and ICC profile (JPEG, WebP, HEIF), eXIf and tIME (PNG), read in the
    /// same pass as the pixels.
    public let metadata: PhotoMetadata

    init(frame: Frame, header: PhotoHeader, metadata: PhotoMetadata = PhotoMetadata()) {
        self.frame = frame
        self.header = header
        self.metadata = metadata
    }
}

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

    /// The libheif version that decodes HEIC, HEIF and AVIF ("1.15.1").
    public static var heifVersion: String { String(cString: baphoto_heif_version()) }

    /// Most scans a progressive JPEG may have; ordinary encoders write about 10.
    public static let maxJPEGScans: UInt32 = 100

    /// The format of `file`, when it is one BabyAlbum decodes; otherwise the reason why not.
    package static func detectDecoded(_ file: borrowing PhotoFile, path: String) throws(PhotoError) -> PhotoFormat {
        let prefix = try file.prefix(PhotoFormat.prefixLength, path: path)
        guard let format = PhotoFormat.detect(prefix: prefix) else {
            throw PhotoError.unrecognized(path: path, isEmpty: prefix.isEmpty)
        }
        guard format.isShown else { throw PhotoError.unsupported(format, path: path) }
        return format
    }
}

extension PhotoMetadata {
    /// Copies the codec's metadata (it stays the caller's to free): EXIF, ICC, PNG tIME and
    /// what the conversion to sRGB did.
    init(_ metadata: baphoto_metadata) {
        self.init(
            exif: Self.bytes(metadata.exif, metadata.exif_length), icc: Self.bytes(metadata.icc, metadata.icc_length))
        if metadata.has_time != 0 {
            let f = metadata.time_fields
            pngTime = Self.pngTime(
                year: Int(f.0), month: Int(f.1), day: Int(f.2), hour: Int(f.3), minute: Int(f.4), second: Int(f.5))
        }
        if metadata.colour_done != 0 { noteColour(metadata.colour) }
    }

    /// Records what colour management did: the profile's description, and why it was ignored.
    mutating func noteColour(_ outcome: bacolour_outcome) {
        guard outcome.result != BACOLOUR_UNTAGGED else { return }
        var outcome = outcome
        colourProfile = withUnsafeBytes(of: &outcome.name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        guard outcome.result == BACOLOUR_IGNORED else { return }
        colourIgnored = withUnsafeBytes(of: &outcome.reason) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ length: Int) -> [UInt8]? {
        guard let pointer, length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }
}
