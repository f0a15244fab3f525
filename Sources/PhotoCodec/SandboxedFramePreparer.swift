import AlbumDomain

/// Prepares photos for the screen as ``PhotoFramePreparer`` does, but every decode (header and
/// pixels, every format) runs in a sandboxed worker process (``DecodeWorkerPool``). This process
/// only opens the file, reads its first bytes to name its format, and paints the `auto`
/// backdrop on the screen-size frame the worker returns.
public struct SandboxedFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PNGLimits
    /// The most one decode may hold; the worker's `RLIMIT_AS` is sized from it.
    public let budget: DecodeMemoryBudget
    /// How the screen is mounted.
    public let rotation: ScreenRotation
    /// The workers.
    public let workers: DecodeWorkerPool

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PNGLimits = PNGLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, workers: DecodeWorkerPool = DecodeWorkerPool()
    ) {
        self.scale = scale
        self.limits = limits
        self.budget = budget
        self.rotation = rotation
        self.workers = workers
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        let name = photo.id.description
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        let request = DecodeRequest(size: size, scale: scale, rotation: rotation, limits: limits, budget: budget)
        let decoded = try workers.decode(file, path: name, request: request)
        guard scale == .auto, decoded.scaleUsed == .fit else { return decoded.frame }
        // `auto` chose to fit: the frame is upright; the backdrop is painted, then it is turned.
        var pixels = decoded.frame.pixels
        Backdrop.paintBars(of: &pixels, size: decoded.frame.size, photo: decoded.header.uprightSize)
        return Frame(size: decoded.frame.size, pixels: pixels).turned(for: rotation)
    }
}
