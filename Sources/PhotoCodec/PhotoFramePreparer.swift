import AlbumDomain

/// Prepares photos for the screen, whatever their format: opens the file once, safely
/// (``PhotoFile``), recognises it by its bytes (``PhotoFormat``) and decodes it scaled to the
/// screen (``PhotoDecoder``). The photo's id is its file path, as bytes.
public struct PhotoFramePreparer: FramePreparing {
    /// How photos are fitted to the screen.
    public let scale: ScaleMode
    /// Limits against hostile files.
    public let limits: PhotoLimits
    /// The most one decode may hold beyond a few rows.
    public let budget: DecodeMemoryBudget
    /// How the screen is mounted: frames are the panel's own size, with the photo turned
    /// upright for the mounted screen (in the one turning step the EXIF orientation uses).
    public let rotation: ScreenRotation
    /// Draws each photo's caption into its frame; `nil` for none (`--caption none`).
    public let caption: CaptionPainter?

    /// Creates a preparer.
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

    public func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        // The path is the id's bytes, exactly as the folder listed them (not always UTF-8).
        let name = photo.id.description
        let (frame, metadata) = try decodeFrame(photo, name: name, size: size)
        guard let caption else { return frame }
        return caption.paint(consume frame, metadata: metadata, rotation: rotation, name: name)
    }

    /// The photo's frame and its metadata (EXIF, PNG tIME), read in the decode's own pass.
    private func decodeFrame(_ photo: Photo, name: String, size: FrameSize) throws -> (Frame, PhotoMetadata) {
        let file = try PhotoFile(pathBytes: photo.id.bytes, displayPath: name)
        guard scale == .auto else { return try decode(file, name: name, size: size, scale: scale) }
        let header = try PhotoDecoder.header(of: file, path: name, limits: limits, budget: budget)
        let photoSize = header.uprightSize
        let screen = rotation.swapsAxes ? FrameSize(width: size.height, height: size.width) : size
        guard Backdrop.fillCrop(photo: photoSize, screen: screen) > Backdrop.cropLimit else {
            return try decode(file, name: name, size: size, scale: .fill)
        }
        // The backdrop is made upright, then the frame is turned for the panel.
        let upright = try PhotoDecoder.decode(
            file, path: name, to: screen, scale: .fit, limits: limits, budget: budget)
        let metadata = upright.metadata
        var frame = (consume upright).frame
        frame.paintBackdrop(photo: photoSize)
        return (frame.turned(for: rotation), metadata)
    }

    private func decode(
        _ file: borrowing PhotoFile, name: String, size: FrameSize, scale: ScaleMode
    ) throws -> (Frame, PhotoMetadata) {
        let decoded = try PhotoDecoder.decode(
            file, path: name, to: size, scale: scale, limits: limits, budget: budget, rotation: rotation)
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
