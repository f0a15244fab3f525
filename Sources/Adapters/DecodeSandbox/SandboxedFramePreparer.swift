import AlbumDomain
import CSandbox
import FrameFinishing
import PhotoCodec

/// Prepares photos for the screen as ``PhotoFramePreparer`` does, but every decode (header and
/// pixels, every format) runs in a sandboxed worker process (``DecodeWorkerPool``), which decides
/// `auto` and decodes to the recipe's size. This process only opens the file, reads its first
/// bytes to name its format, and finishes the frame the worker returns with the same
/// ``FrameRecipe``.
public struct SandboxedFramePreparer: FramePreparing {
    /// How photos are fitted, limited, turned and captioned (the caption in this process).
    public let recipe: FrameRecipe
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
        recipe = FrameRecipe(scale: scale, limits: limits, budget: budget, rotation: rotation, caption: caption)
        self.workers = workers
        self.colourWarning = colourWarning
        self.colourNote = colourNote
        self.decodeDeadline = decodeDeadline
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try recipe.prepare(photo, panel: size) { file, name in
            let decoded = try decode(file, name: name, panel: size)
            if let line = decoded.metadata.colourWarning(name: name) { colourWarning(line) }
            if let line = decoded.metadata.colourNote(name: name) { colourNote(line) }
            return decoded
        }
    }

    /// The worker's frame and what the recipe needs of its reply.
    private func decode(_ file: borrowing PhotoFile, name: String, panel: FrameSize) throws -> DecodedFrame {
        let request = DecodeRequest(
            size: panel, scale: recipe.scale, rotation: recipe.rotation, limits: recipe.limits,
            budget: recipe.budget, deadline: decodeDeadline)
        let decoded = try workers.decode(file, path: name, request: request)
        let (metadata, photoSize, scaleUsed) = (decoded.metadata, decoded.header.uprightSize, decoded.scaleUsed)
        // The reply lets go of the frame, so the recipe's backdrop is painted in place, not on a copy.
        return DecodedFrame(
            frame: (consume decoded).frame, scaleUsed: scaleUsed, photoSize: photoSize, metadata: metadata)
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
