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

    package init(format: PhotoFormat, _ header: baphoto_header) {
        self.format = format
        width = Int(header.width)
        height = Int(header.height)
        orientation = Int(header.orientation)
        wholeImageBytes = header.whole_image_bytes
        dctScaleEighths = Int(header.dct_scale_eighths)
        isAnimated = header.animated != 0
    }

    init(png header: PNGHeader) {
        format = .png
        width = header.width
        height = header.height
        orientation = header.orientation
        wholeImageBytes = 0
        dctScaleEighths = 8
        isAnimated = false
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
        if format == .png {
            return try decodePNG(file, path: path, to: size, scale: scale, limits: limits, rotation: rotation)
        }
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        var header = baphoto_header()
        var metadata = baphoto_metadata()
        defer { baphoto_metadata_free(&metadata) }
        var cLimits = limits.codecLimits(budget: budget)
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let descriptor = file.descriptor
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            var target = baphoto_target(
                size: size, scale: scale, rotation: rotation, pixels: buffer.baseAddress,
                dctScaleEighths: dctScaleEighths ?? 0)
            switch format {
            case .jpeg: return baphoto_jpeg_decode(descriptor, &cLimits, &target, &header, &metadata, &message)
            case .webp: return baphoto_webp_decode(descriptor, &cLimits, &target, &header, &metadata, &message)
            default: return baphoto_heif_decode(descriptor, &cLimits, &target, &header, &metadata, &message)
            }
        }
        try PhotoError.check(codecStatus: status, message: message, path: path)
        var photoMetadata = PhotoMetadata(metadata)
        photoMetadata.noteColour(Self.convertToSRGB(&pixels, size: size, icc: metadata))
        return DecodedPhoto(
            frame: Frame(size: size, pixels: pixels), header: PhotoHeader(format: format, header),
            metadata: photoMetadata)
    }

    /// Converts the screen-size `pixels` from the photo's embedded ICC profile (or a HEIF's nclx
    /// description) to sRGB, with the same C functions as the decode worker (untouched when
    /// untagged, sRGB or unusable).
    static func convertToSRGB(
        _ pixels: inout [UInt32], size: FrameSize, icc metadata: baphoto_metadata
    ) -> bacolour_outcome {
        // A CMYK JPEG's profile was applied by the codec, row by row.
        if metadata.colour_done != 0 { return metadata.colour }
        let width = UInt32(size.width)
        let height = UInt32(size.height)
        return pixels.withUnsafeMutableBufferPointer { buffer in
            if metadata.has_nclx != 0 {
                return bacolour_nclx_to_srgb(
                    metadata.nclx_primaries, metadata.nclx_transfer, buffer.baseAddress, width, height, width)
            }
            return bacolour_to_srgb(metadata.icc, metadata.icc_length, buffer.baseAddress, width, height, width)
        }
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
        if format == .png {
            return PhotoHeader(png: try PNGDecoder.header(of: file, path: path, limits: limits))
        }
        var header = baphoto_header()
        var cLimits = limits.codecLimits(budget: budget)
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let status: Int32 =
            switch format {
            case .jpeg: baphoto_jpeg_read_header(file.descriptor, &cLimits, &header, &message)
            case .webp: baphoto_webp_read_header(file.descriptor, &cLimits, &header, &message)
            default: baphoto_heif_read_header(file.descriptor, &cLimits, &header, &message)
            }
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

    private static func decodePNG(
        _ file: borrowing PhotoFile, path: String, to size: FrameSize, scale: ScaleMode, limits: PhotoLimits,
        rotation: ScreenRotation
    ) throws(PhotoError) -> DecodedPhoto {
        // One pass: the header and the metadata come back with the pixels.
        let (frame, header) = try PNGDecoder.decodeWithHeader(
            file, path: path, to: size, scale: scale, limits: limits, rotation: rotation)
        return DecodedPhoto(frame: frame, header: PhotoHeader(png: header), metadata: header.metadata)
    }
}

extension PhotoMetadata {
    /// Copies the codec's metadata (it stays the caller's to free).
    init(_ metadata: baphoto_metadata) {
        self.init(
            exif: Self.bytes(metadata.exif, metadata.exif_length), icc: Self.bytes(metadata.icc, metadata.icc_length))
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
