import AlbumDomain
import CSandbox

/// Prepares photos for the screen as ``PhotoFramePreparer`` does, but every decode (header and
/// pixels, every format) runs in a sandboxed worker process (``DecodeWorkerPool``). This process
/// only opens the file, reads its first bytes to name its format, and paints the `auto`
/// backdrop on the screen-size frame the worker returns.
public struct SandboxedFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PhotoLimits
    /// The most one decode may hold; the worker's `RLIMIT_AS` is sized from it.
    public let budget: DecodeMemoryBudget
    /// How the screen is mounted.
    public let rotation: ScreenRotation
    /// The workers.
    public let workers: DecodeWorkerPool
    /// Draws each photo's caption into its frame, in this process; `nil` for none.
    public let caption: CaptionPainter?
    /// Where the one line about a photo whose colour profile was ignored goes.
    public let colourWarning: @Sendable (String) -> Void
    /// Where the line naming the colour profile a photo carries (and that is used) goes.
    public let colourNote: @Sendable (String) -> Void

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, workers: DecodeWorkerPool = DecodeWorkerPool(),
        caption: CaptionPainter? = nil, colourWarning: @escaping @Sendable (String) -> Void = { _ in },
        colourNote: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.scale = scale
        self.limits = limits
        self.budget = budget
        self.rotation = rotation
        self.workers = workers
        self.caption = caption
        self.colourWarning = colourWarning
        self.colourNote = colourNote
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        let name = photo.id.description
        let (frame, metadata) = try decodeFrame(photo, name: name, size: size)
        if let line = metadata.colourWarning(name: name) { colourWarning(line) }
        if let line = metadata.colourNote(name: name) { colourNote(line) }
        guard let caption else { return frame }
        return caption.paint(consume frame, metadata: metadata, rotation: rotation, name: name)
    }

    /// The worker's frame (with the `auto` backdrop) and the photo's metadata from its reply.
    private func decodeFrame(_ photo: Photo, name: String, size: FrameSize) throws -> (Frame, PhotoMetadata) {
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        let request = DecodeRequest(size: size, scale: scale, rotation: rotation, limits: limits, budget: budget)
        let decoded = try workers.decode(file, path: name, request: request)
        guard scale == .auto, decoded.scaleUsed == .fit else { return (decoded.frame, decoded.metadata) }
        // `auto` chose to fit: the frame is upright; the backdrop is painted, then it is turned.
        let (metadata, photoSize) = (decoded.metadata, decoded.header.uprightSize)
        // The reply lets go of the frame, so the backdrop is painted in place, not on a copy.
        var frame = (consume decoded).frame
        frame.paintBackdrop(photo: photoSize)
        return (frame.turned(for: rotation), metadata)
    }
}

extension WorkerDecode {
    /// The photo's metadata from the worker's reply: the EXIF bytes, a PNG's tIME, the colour profile.
    public var metadata: PhotoMetadata {
        let time = extras[UInt16(BADECODE_EXTRA_CAPTURE_DATE)].flatMap { bytes -> CaptureDate? in
            guard var date = ExifDateParser.parse(dateTime: String(decoding: bytes, as: UTF8.self)) else { return nil }
            date.source = .pngTime
            date.offsetMinutes = 0
            return date
        }
        let text = { (type: Int) in extras[UInt16(type)].map { String(decoding: $0, as: UTF8.self) } }
        return PhotoMetadata(
            exif: extras[UInt16(BADECODE_EXTRA_EXIF)], pngTime: time,
            colourProfile: text(BADECODE_EXTRA_ICC_PROFILE_NAME), colourIgnored: text(BADECODE_EXTRA_COLOUR_IGNORED))
    }
}
