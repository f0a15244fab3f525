import AlbumDomain
import CColour
import CPhotoCodecCore

/// A decoded photo: the frame, what its header said, and its metadata.
public struct DecodedPhoto: Sendable {
    /// The photo scaled to the screen.
    public let frame: Frame
    /// The photo's header.
    public let header: PhotoHeader
    /// The photo's metadata: EXIF and ICC profile (JPEG, WebP, HEIF), eXIf and tIME (PNG), read in the
    /// same pass as the pixels.
    public let metadata: PhotoMetadata

    package init(frame: Frame, header: PhotoHeader, metadata: PhotoMetadata = PhotoMetadata()) {
        self.frame = frame
        self.header = header
        self.metadata = metadata
    }
}
