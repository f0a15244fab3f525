import AlbumDomain

/// Prepares photos for the screen, whatever their format: opens the file once, safely
/// (``PhotoFile``), recognises it by its bytes (``PhotoFormat``) and decodes it scaled to the
/// screen (``PhotoDecoder``). The photo's id is its file path, as bytes.
public struct PhotoFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PNGLimits
    /// The most one decode may hold beyond a few rows.
    public let budget: DecodeMemoryBudget
    /// How the screen is mounted: frames are the panel's own size, with the photo turned
    /// upright for the mounted screen (in the one turning step the EXIF orientation uses).
    public let rotation: ScreenRotation

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PNGLimits = PNGLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none
    ) {
        self.scale = scale
        self.limits = limits
        self.budget = budget
        self.rotation = rotation
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        // The path is the id's bytes, exactly as the folder listed them (not always UTF-8).
        let name = photo.id.description
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        return try PhotoDecoder.decode(
            file, path: name, to: size, scale: scale, limits: limits, budget: budget, rotation: rotation
        ).frame
    }
}
