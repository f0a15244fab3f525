import AlbumDomain
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
    public let settings: FrameSettings

    /// Creates a preparer.
    public init(
        scale: ScaleMode, limits: PhotoLimits = PhotoLimits(), budget: DecodeMemoryBudget = .default,
        rotation: ScreenRotation = .none, caption: CaptionPainter? = nil
    ) {
        settings = FrameSettings(scale: scale, limits: limits, budget: budget, rotation: rotation, caption: caption)
    }

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        try settings.prepare(photo) { file, name in try decodeFrame(file, name: name, size: size) }
    }

    /// The photo's frame and its metadata (EXIF, PNG tIME), read in the decode's own pass.
    private func decodeFrame(
        _ file: borrowing PhotoFile, name: String, size: FrameSize
    ) throws -> (Frame, PhotoMetadata) {
        let (scale, limits, budget, rotation) = (settings.scale, settings.limits, settings.budget, settings.rotation)
        guard scale == .auto else { return try decode(file, name: name, size: size, scale: scale) }
        let header = try PhotoDecoder.header(of: file, path: name, limits: limits, budget: budget)
        let photoSize = header.uprightSize
        let screen = rotation.swapsAxes ? FrameSize(width: size.height, height: size.width) : size
        guard AutoScale.mode(for: header, screen: screen) == .fit else {
            return try decode(file, name: name, size: size, scale: .fill)
        }
        // The backdrop is made upright, then the frame is turned for the panel.
        let upright = try PhotoDecoder.decode(
            file, path: name, to: screen, scale: .fit, limits: limits, budget: budget)
        let metadata = upright.metadata
        return (settings.withBackdrop((consume upright).frame, photo: photoSize), metadata)
    }

    private func decode(
        _ file: borrowing PhotoFile, name: String, size: FrameSize, scale: ScaleMode
    ) throws -> (Frame, PhotoMetadata) {
        let decoded = try PhotoDecoder.decode(
            file, path: name, to: size, scale: scale, limits: settings.limits, budget: settings.budget,
            rotation: settings.rotation)
        return (decoded.frame, decoded.metadata)
    }
}
