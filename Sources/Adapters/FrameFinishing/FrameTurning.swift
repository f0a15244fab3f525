import AlbumDomain
import PhotoCodec

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
