import AlbumDomain

/// Prepares photos for the screen: decodes a PNG file with libpng and scales it to the screen
/// size. The photo's id is its file path.
public struct PNGFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PNGLimits

    /// Creates a preparer.
    public init(scale: ScaleMode, limits: PNGLimits = PNGLimits()) {
        self.scale = scale
        self.limits = limits
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try PNGDecoder.decode(photo.id, to: size, scale: scale, limits: limits)
    }
}
