import AlbumDomain

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

extension PhotoHeader {
    /// Width and height as a person sees the photo (after its EXIF orientation).
    public var uprightSize: FrameSize {
        orientation >= 5 ? FrameSize(width: height, height: width) : FrameSize(width: width, height: height)
    }
}

extension Frame {
    /// Paints the `auto` backdrop in the bars around a photo of `photo`'s size fitted to this
    /// upright frame: in place when this frame is the only holder of its pixels (as a decode's
    /// frame is once its reply is consumed), so no second full frame is made.
    mutating func paintBackdrop(photo: FrameSize) {
        let size = size
        drawOnPixels { Backdrop.paintBars(of: &$0, size: size, photo: photo) }
    }

    /// This upright frame as the panel of a screen mounted with `rotation` holds it (the
    /// panel's own size): each panel pixel shows the upright pixel it faces.
    public func turned(for rotation: ScreenRotation) -> Frame {
        guard rotation != .none else { return self }
        let panel = rotation.swapsAxes ? FrameSize(width: size.height, height: size.width) : size
        let (width, height) = (panel.width, panel.height)
        var turned = [UInt32](repeating: 0, count: panel.pixelCount)
        pixels.withUnsafeBufferPointer { upright in
            for y in 0..<height {
                for x in 0..<width {
                    let (ux, uy): (Int, Int) =
                        switch rotation {
                        case .none: (x, y)
                        case .clockwise90: (height - 1 - y, x)
                        case .upsideDown: (width - 1 - x, height - 1 - y)
                        case .clockwise270: (y, width - 1 - x)
                        }
                    turned[y * width + x] = upright[uy * size.width + ux]
                }
            }
        }
        return Frame(size: panel, pixels: turned)
    }
}
