import AlbumDomain
import PhotoCodec

/// The frame recipe: how a photo becomes the frame on the panel, for every path that makes one
/// (the slideshow's sandboxed workers, the tests' in-process reference).
///
/// 1. `auto` decides fill or fit on the upright screen (``AutoScale``, the codec layer's
///    `baphoto_auto_scale`, which the decode worker calls too).
/// 2. The decoder makes a frame of ``decodedSize(panel:scaleUsed:)``: fill and fit turned for the
///    panel in the decoder's own turning step (with the EXIF orientation); `auto`'s fit upright.
/// 3. ``prepare(_:panel:decode:)`` finishes it: for `auto`'s fit the backdrop is painted in the
///    bars, then the frame is turned for the panel; the caption is drawn last, on the panel.
public struct FrameRecipe: Sendable {
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

    /// Creates the recipe.
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

    /// The largest share of a photo that `auto` lets filling crop; more, and it fits over the backdrop.
    public static let autoCropLimit = Backdrop.cropLimit

    /// The screen as a person sees it: the panel's size, its sides swapped for a quarter turn.
    public static func uprightScreen(panel: FrameSize, rotation: ScreenRotation) -> FrameSize {
        rotation.swapsAxes ? FrameSize(width: panel.height, height: panel.width) : panel
    }

    /// The size of the frame a decoder returns for a `panel` when it used `scaleUsed`: the
    /// panel's, or, when `auto` chose to fit, the upright screen's (the backdrop and the turn
    /// come after, in ``prepare(_:panel:decode:)``).
    public static func decodedSize(
        panel: FrameSize, rotation: ScreenRotation, requested: ScaleMode, scaleUsed: ScaleMode
    ) -> FrameSize {
        requested == .auto && scaleUsed == .fit ? uprightScreen(panel: panel, rotation: rotation) : panel
    }

    /// ``decodedSize(panel:rotation:requested:scaleUsed:)`` for this recipe.
    public func decodedSize(panel: FrameSize, scaleUsed: ScaleMode) -> FrameSize {
        Self.decodedSize(panel: panel, rotation: rotation, requested: scale, scaleUsed: scaleUsed)
    }

    /// The turn the decoder applies for `scaleUsed`: the screen's, except for `auto`'s fit,
    /// which is decoded upright (the recipe turns it after the backdrop).
    public func decoderRotation(scaleUsed: ScaleMode) -> ScreenRotation {
        scale == .auto && scaleUsed == .fit ? .none : rotation
    }

    /// Makes `photo`'s frame for a `panel`: opens the photo (its path is the id's bytes, exactly as
    /// the folder listed them, not always UTF-8), decodes it with `decode` (steps 1 and 2), and
    /// finishes the frame (step 3). A decode whose frame, finished, is not the panel's size is
    /// refused (``PhotoError/Kind/decoderFailed``): never half a screen.
    public func prepare(
        _ photo: Photo, panel: FrameSize, decode: (borrowing PhotoFile, String) throws -> DecodedFrame
    ) throws -> Frame {
        let name = photo.id.description
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        let decoded = try decode(file, name)
        let metadata = decoded.metadata
        var frame = finish(consume decoded)
        guard frame.size == panel else {
            let made = "\(frame.size.width)x\(frame.size.height)"
            throw PhotoError(
                kind: .decoderFailed,
                reason: "the decoder made a \(made) frame for a \(panel.width)x\(panel.height) screen",
                path: name)
        }
        guard let caption else { return frame }
        frame = caption.paint(consume frame, metadata: metadata, rotation: rotation, name: name)
        return frame
    }

    /// Step 3 without the caption: the decoded frame on the panel.
    private func finish(_ decoded: consuming DecodedFrame) -> Frame {
        guard scale == .auto, decoded.scaleUsed == .fit else { return decoded.frame }
        // The decoder let go of the frame: the backdrop is painted in place, not on a copy.
        let photoSize = decoded.photoSize
        var frame = (consume decoded).frame
        frame.paintBackdrop(photo: photoSize)
        return frame.turned(for: rotation)
    }
}
