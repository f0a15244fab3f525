import AlbumDomain
import PhotoCodec

/// What a decoder returns to the recipe: its frame, how it scaled, the photo's upright size and
/// its metadata (for the caption and the colour lines).
public struct DecodedFrame: Sendable {
    /// The frame, of ``FrameRecipe/decodedSize(panel:scaleUsed:)``.
    public var frame: Frame
    /// Fill or fit (for `auto`, what it chose).
    public var scaleUsed: ScaleMode
    /// The photo's width and height as a person sees it (after its EXIF orientation).
    public var photoSize: FrameSize
    /// EXIF, a PNG's tIME, the colour profile.
    public var metadata: PhotoMetadata

    /// Creates the result of a decode.
    public init(frame: Frame, scaleUsed: ScaleMode, photoSize: FrameSize, metadata: PhotoMetadata) {
        self.frame = frame
        self.scaleUsed = scaleUsed
        self.photoSize = photoSize
        self.metadata = metadata
    }
}
