import AlbumDomain

/// What both frame preparers (``PhotoFramePreparer`` in this process, `SandboxedFramePreparer` of
/// module `DecodeSandbox` in decode workers) take, and the steps they share around the decode:
/// opening the photo by its id, the `auto` backdrop, and the caption.
public struct FrameSettings: Sendable {
    /// How photos are fitted to the screen.
    public var scale: ScaleMode
    /// Limits against hostile files.
    public var limits: PhotoLimits
    /// The most one decode may hold beyond a few rows (a worker's `RLIMIT_AS` is sized from it).
    public var budget: DecodeMemoryBudget
    /// How the screen is mounted: frames are the panel's own size, with the photo turned
    /// upright for the mounted screen (in the one turning step the EXIF orientation uses).
    public var rotation: ScreenRotation
    /// Draws each photo's caption into its frame; `nil` for none (`--caption none`).
    public var caption: CaptionPainter?

    /// Creates the settings.
    public init(
        scale: ScaleMode, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, caption: CaptionPainter? = nil
    ) {
        self.scale = scale
        self.limits = limits
        self.budget = budget
        self.rotation = rotation
        self.caption = caption
    }

    /// Prepares `photo`: opens it (its path is the id's bytes, exactly as the folder listed them,
    /// not always UTF-8), decodes it with `decode`, and paints the caption.
    package func prepare(
        _ photo: Photo, decode: (borrowing PhotoFile, String) throws -> (Frame, PhotoMetadata)
    ) throws -> Frame {
        let name = photo.id.description
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        let (frame, metadata) = try decode(file, name)
        guard let caption else { return frame }
        return caption.paint(consume frame, metadata: metadata, rotation: rotation, name: name)
    }

    /// The `auto` backdrop: `upright`, a photo of `photo`'s size fitted to the upright screen,
    /// with its bars painted (in place when the caller let go of the frame), then turned for the panel.
    package func withBackdrop(_ upright: consuming Frame, photo: FrameSize) -> Frame {
        var frame = upright
        frame.paintBackdrop(photo: photo)
        return frame.turned(for: rotation)
    }
}
