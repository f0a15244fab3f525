import AlbumDomain
import CColour
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

extension PhotoMetadata {
    /// Copies the codec's metadata (it stays the caller's to free): EXIF, ICC, PNG tIME and
    /// what the conversion to sRGB did.
    package init(_ metadata: baphoto_metadata) {
        self.init(
            exif: Self.bytes(metadata.exif, metadata.exif_length), icc: Self.bytes(metadata.icc, metadata.icc_length))
        if metadata.has_time != 0 {
            let f = metadata.time_fields
            pngTime = Self.pngTime(
                year: Int(f.0), month: Int(f.1), day: Int(f.2), hour: Int(f.3), minute: Int(f.4), second: Int(f.5))
        }
        noteColour(metadata.colour)
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

extension PhotoHeader {
    /// Width and height as a person sees the photo (after its EXIF orientation).
    public var uprightSize: FrameSize {
        orientation >= 5 ? FrameSize(width: height, height: width) : FrameSize(width: width, height: height)
    }
}
