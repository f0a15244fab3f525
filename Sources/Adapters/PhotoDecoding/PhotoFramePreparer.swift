import AlbumDomain
import FrameFinishing
import PhotoCodec

/// The in-process adapter of ``FramePreparing``, for the tests: it decodes in the calling
/// process, unconfined, and is the reference the sandboxed workers' frames are compared with.
/// The slideshow never uses it: it decodes in sandboxed workers (`SandboxedFramePreparer`, module
/// `DecodeSandbox`; see docs/decode-sandbox.md), and `babyalbum doctor` reads headers and
/// metadata with ``PhotoDecoder`` directly.
///
/// It prepares photos as the workers do, whatever their format: opens the file once, safely
/// (``PhotoFile``), recognises it by its bytes (``PhotoFormat``), decides `auto` in the same place
/// (``AutoScale``) and decodes it scaled to the screen (``PhotoDecoder``). The photo's id is its
/// file path, as bytes.
public struct PhotoFramePreparer: FramePreparing {
    /// How photos are fitted, limited, turned and captioned.
    public let recipe: FrameRecipe

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, caption: CaptionPainter? = nil
    ) {
        recipe = FrameRecipe(scale: scale, limits: limits, budget: budget, rotation: rotation, caption: caption)
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try recipe.prepare(photo, panel: size) { file, name in try decode(file, name: name, panel: size) }
    }

    /// The photo decoded for the recipe, `auto` decided here as the worker decides it.
    private func decode(_ file: borrowing PhotoFile, name: String, panel: FrameSize) throws -> DecodedFrame {
        let header = try PhotoDecoder.header(of: file, path: name, limits: recipe.limits, budget: recipe.budget)
        let upright = FrameRecipe.uprightScreen(panel: panel, rotation: recipe.rotation)
        let scaleUsed = recipe.scale == .auto ? AutoScale.mode(for: header, screen: upright) : recipe.scale
        let decoded = try PhotoDecoder.decode(
            file, path: name, to: recipe.decodedSize(panel: panel, scaleUsed: scaleUsed), scale: scaleUsed,
            limits: recipe.limits, budget: recipe.budget, rotation: recipe.decoderRotation(scaleUsed: scaleUsed))
        let metadata = decoded.metadata
        return DecodedFrame(
            frame: (consume decoded).frame, scaleUsed: scaleUsed, photoSize: header.uprightSize, metadata: metadata)
    }
}
