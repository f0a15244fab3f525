import AlbumDomain
import CSandbox
import PhotoCodec

/// Prepares photos for the screen as ``PhotoFramePreparer`` does, but every decode (header and
/// pixels, every format) runs in a sandboxed worker process (``DecodeWorkerPool``). This process
/// only opens the file, reads its first bytes to name its format, and paints the `auto`
/// backdrop on the screen-size frame the worker returns.
public struct SandboxedFramePreparer: FramePreparing {
    /// How photos are fitted, limited, turned and captioned (the caption in this process).
    public let settings: FrameSettings
    /// The workers.
    public let workers: DecodeWorkerPool
    /// Where the one line about a photo whose colour profile was ignored goes.
    public let colourWarning: @Sendable (String) -> Void
    /// Where the line naming the colour profile a photo carries (and that is used) goes.
    public let colourNote: @Sendable (String) -> Void
    /// How long one photo's decode may take (`nil`: the pool's deadline); a photo not decoded
    /// by then fails as ``PhotoError/Kind/overDeadline`` and the slideshow passes it over (and
    /// tries it once more later).
    public let decodeDeadline: Duration?

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, workers: DecodeWorkerPool = DecodeWorkerPool(),
        caption: CaptionPainter? = nil, colourWarning: @escaping @Sendable (String) -> Void = { _ in },
        colourNote: @escaping @Sendable (String) -> Void = { _ in }, decodeDeadline: Duration? = nil
    ) {
        settings = FrameSettings(scale: scale, limits: limits, budget: budget, rotation: rotation, caption: caption)
        self.workers = workers
        self.colourWarning = colourWarning
        self.colourNote = colourNote
        self.decodeDeadline = decodeDeadline
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try settings.prepare(photo) { file, name in
            let (frame, metadata) = try decodeFrame(file, name: name, size: size)
            if let line = metadata.colourWarning(name: name) { colourWarning(line) }
            if let line = metadata.colourNote(name: name) { colourNote(line) }
            return (frame, metadata)
        }
    }

    /// The worker's frame (with the `auto` backdrop) and the photo's metadata from its reply.
    private func decodeFrame(
        _ file: borrowing PhotoFile, name: String, size: FrameSize
    ) throws -> (Frame, PhotoMetadata) {
        let request = DecodeRequest(
            size: size, scale: settings.scale, rotation: settings.rotation, limits: settings.limits,
            budget: settings.budget, deadline: decodeDeadline)
        let decoded = try workers.decode(file, path: name, request: request)
        guard settings.scale == .auto, decoded.scaleUsed == .fit else { return (decoded.frame, decoded.metadata) }
        // `auto` chose to fit: the frame is upright; the backdrop is painted, then it is turned.
        // The reply lets go of the frame, so the backdrop is painted in place, not on a copy.
        let (metadata, photoSize) = (decoded.metadata, decoded.header.uprightSize)
        return (settings.withBackdrop((consume decoded).frame, photo: photoSize), metadata)
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
