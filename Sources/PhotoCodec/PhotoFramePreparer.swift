import AlbumDomain

/// Prepares photos for the screen, whatever their format: opens the file once, safely
/// (``PhotoFile``), recognises it by its bytes (``PhotoFormat``) and decodes it scaled to the
/// screen (``PhotoDecoder``). The photo's id is its file path.
public struct PhotoFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PNGLimits
    /// The most one decode may hold beyond a few rows.
    public let budget: DecodeMemoryBudget

    /// Creates a preparer.
    public init(scale: ScaleMode, limits: PNGLimits = PNGLimits(), budget: DecodeMemoryBudget = .default) {
        self.scale = scale
        self.limits = limits
        self.budget = budget
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try PhotoDecoder.decode(photo.id, to: size, scale: scale, limits: limits, budget: budget)
    }
}
