import AlbumDomain
import CPNGCodec
import CPhotoCodecCore

/// What a PNG's header says.
public struct PNGHeader: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per sample (1, 2, 4, 8, 16).
    public let bitDepth: Int
    /// PNG colour type (0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA).
    public let colorType: Int
    /// Whether the image is Adam7 interlaced.
    public let isInterlaced: Bool
    /// The eXIf orientation, 1 to 8 (1 when there is none).
    public let orientation: Int
    /// The eXIf chunk and the tIME chunk, read in the same pass, and what the iCCP profile's conversion did.
    public let metadata: PhotoMetadata

    init(_ header: bapng_header, exif: [UInt8]) {
        width = Int(header.width)
        height = Int(header.height)
        bitDepth = Int(header.bit_depth)
        colorType = Int(header.color_type)
        isInterlaced = header.interlaced != 0
        orientation = Int(header.orientation)
        var metadata = PhotoMetadata()
        if header.exif_size > 0 { metadata.exif = Array(exif.prefix(Int(header.exif_size))) }
        if header.has_time != 0 {
            let f = header.time_fields
            metadata.pngTime = PhotoMetadata.pngTime(
                year: Int(f.0), month: Int(f.1), day: Int(f.2), hour: Int(f.3), minute: Int(f.4), second: Int(f.5))
        }
        metadata.noteColour(header.colour)
        self.metadata = metadata
    }
}

/// Decodes PNG files with libpng into frames of XRGB8888 pixels.
///
/// Every colour type, bit depth, palette, tRNS and Adam7 is decoded to 8 bits a channel,
/// transparency composited over black, gAMA ignored. Non-interlaced photos are streamed row by
/// row straight into the target size, and Adam7 passes are added straight into per-pixel sums of
/// the target, so the full-size photo never exists in memory.
public enum PNGDecoder {
    /// Reads the header of `path`, checking it against `limits`.
    public static func header(of path: String, limits: PhotoLimits = PhotoLimits()) throws(PhotoError) -> PNGHeader {
        try header(of: PhotoFile(path: path), path: path, limits: limits)
    }

    /// Reads the header of the opened `file` (named `path` in errors), checking it against `limits`.
    public static func header(
        of file: borrowing PhotoFile, path: String, limits: PhotoLimits = PhotoLimits()
    ) throws(PhotoError) -> PNGHeader {
        var exif = [UInt8](repeating: 0, count: PhotoMetadata.exifCapacity)
        var cLimits = limits.codecLimits()
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let descriptor = file.descriptor
        let (status, header) = exif.withUnsafeMutableBufferPointer { buffer in
            var header = bapng_header()
            header.exif = buffer.baseAddress
            header.exif_capacity = UInt32(buffer.count)
            return (bapng_read_header(descriptor, &cLimits, &header, &message), header)
        }
        try PhotoError.check(codecStatus: status, message: message, path: path)
        return PNGHeader(header, exif: exif)
    }

    /// Decodes `path` and scales it to `size` with `scale`.
    /// - Parameters:
    ///   - wholeImage: Send every pixel through the order-free path that Adam7 photos take
    ///     (the frame agrees within one level; used to check the two paths against each other).
    ///   - rotation: How the screen is mounted; `size` is the panel's own, and the photo is
    ///     drawn turned so that it is upright on the mounted screen.
    public static func decode(
        _ path: String, to size: FrameSize, scale: ScaleMode, limits: PhotoLimits = PhotoLimits(),
        wholeImage: Bool = false,
        rotation: ScreenRotation = .none
    ) throws(PhotoError) -> Frame {
        try decodeWithHeader(
            PhotoFile(path: path), path: path, to: size, scale: scale, limits: limits, wholeImage: wholeImage,
            rotation: rotation
        ).frame
    }

    /// Decodes the opened `file` (named `path` in errors) as ``decode(_:to:scale:limits:wholeImage:rotation:)``
    /// does, and returns its header and metadata, read in the same pass.
    public static func decodeWithHeader(
        _ file: borrowing PhotoFile, path: String, to size: FrameSize, scale: ScaleMode,
        limits: PhotoLimits = PhotoLimits(), wholeImage: Bool = false, rotation: ScreenRotation = .none
    ) throws(PhotoError) -> (frame: Frame, header: PNGHeader) {
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        var exif = [UInt8](repeating: 0, count: PhotoMetadata.exifCapacity)
        var header = bapng_header()
        var cLimits = limits.codecLimits()
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let descriptor = file.descriptor
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            exif.withUnsafeMutableBufferPointer { exifBuffer in
                header.exif = exifBuffer.baseAddress
                header.exif_capacity = UInt32(exifBuffer.count)
                var target = baphoto_target(
                    size: size, scale: scale, rotation: rotation, pixels: buffer.baseAddress,
                    wholeImage: wholeImage)
                return bapng_decode(descriptor, &cLimits, &target, &header, &message)
            }
        }
        try PhotoError.check(codecStatus: status, message: message, path: path)
        return (Frame(size: size, pixels: pixels), PNGHeader(header, exif: exif))
    }

    /// Decodes `path` at its own size.
    public static func decode(_ path: String, limits: PhotoLimits = PhotoLimits()) throws(PhotoError) -> Frame {
        let file = try PhotoFile(path: path)
        let header = try header(of: file, path: path, limits: limits)
        let size = FrameSize(width: header.width, height: header.height)
        return try decodeWithHeader(file, path: path, to: size, scale: .fit, limits: limits).frame
    }
}

extension baphoto_target {
    /// The target every codec draws into: `pixels` of `size` (the panel's own), fitted by `scale`,
    /// turned for a screen mounted with `rotation`.
    init(
        size: FrameSize, scale: ScaleMode, rotation: ScreenRotation, pixels: UnsafeMutablePointer<UInt32>?,
        dctScaleEighths: Int = 0, wholeImage: Bool = false
    ) {
        self.init(
            pixels: pixels, width: UInt32(size.width), height: UInt32(size.height),
            scale: scale == .fill ? BAPHOTO_SCALE_FILL : BAPHOTO_SCALE_FIT, dct_scale_eighths: Int32(dctScaleEighths),
            quarter_turns: Int32(rotation.quarterTurns), whole_image: wholeImage ? 1 : 0)
    }
}

extension String {
    package init(cString buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
