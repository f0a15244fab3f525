import AlbumDomain

/// Where a frame lands on a screen of another size: centred, cropped or bordered with black.
public struct FramePlacement: Equatable, Sendable {
    /// First frame column and row copied.
    public var sourceX: Int, sourceY: Int
    /// Screen column and row they go to.
    public var destinationX: Int, destinationY: Int
    /// Columns and rows copied.
    public var width: Int, height: Int

    /// Centres a `frame`-sized picture on a `screen`-sized buffer.
    public init(frame: FrameSize, screen: FrameSize) {
        width = min(frame.width, screen.width)
        height = min(frame.height, screen.height)
        sourceX = (frame.width - width) / 2
        sourceY = (frame.height - height) / 2
        destinationX = (screen.width - width) / 2
        destinationY = (screen.height - height) / 2
    }
}
