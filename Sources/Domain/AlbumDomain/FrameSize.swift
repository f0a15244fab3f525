/// Width and height of a frame, in pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size; both sides must be positive.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a frame needs a positive size")
        self.width = width
        self.height = height
    }

    /// Number of pixels.
    public var pixelCount: Int { width * height }

    public var description: String { "\(width)x\(height)" }
}
