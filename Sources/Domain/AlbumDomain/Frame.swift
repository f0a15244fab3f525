/// A picture ready to be shown: `size.width * size.height` pixels in the screen's byte order.
///
/// Each pixel is a `UInt32` `0xXXRRGGBB` (DRM's `DRM_FORMAT_XRGB8888`: bytes B, G, R, X in
/// little-endian memory), rows top to bottom, no padding. Frames are immutable and shared by
/// reference; two frames are equal when they are the same frame, so comparing states never
/// compares pixels.
public struct Frame: Sendable, Equatable {
    // Changed only through `drawOnPixels`, while this frame is its only holder (before it is
    // shared), so every shared frame is immutable.
    private final class Storage: @unchecked Sendable {
        var pixels: [UInt32]
        init(_ pixels: [UInt32]) { self.pixels = pixels }
    }

    private var storage: Storage

    /// The frame's size.
    public let size: FrameSize

    /// Wraps `pixels`, which must hold exactly `size.pixelCount` values.
    public init(size: FrameSize, pixels: [UInt32]) {
        precondition(pixels.count == size.pixelCount, "pixel count does not match the frame size")
        self.size = size
        self.storage = Storage(pixels)
    }

    /// The pixels, row by row.
    public var pixels: [UInt32] { storage.pixels }

    /// Draws on the pixels in place (a caption on a frame just made): in place when this frame is
    /// the only holder of them, else on a copy, so a frame already shared never changes.
    public mutating func drawOnPixels(_ draw: (inout [UInt32]) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.pixels) }
        let count = storage.pixels.count
        draw(&storage.pixels)
        precondition(storage.pixels.count == count, "drawing changed the pixel count")
    }

    /// A black frame of the given size.
    public static func black(_ size: FrameSize) -> Frame {
        Frame(size: size, pixels: [UInt32](repeating: 0, count: size.pixelCount))
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.storage === rhs.storage
    }
}
