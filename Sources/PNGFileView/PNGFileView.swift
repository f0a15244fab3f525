import AlbumDomain
import PhotoCodec

/// A view that needs no screen: every frame it is given is written as `DIR/frame-NNNN.png`
/// (1-based, 4 digits). Used to preview a folder, by the tests, and as the golden image the DRM
/// output is compared with.
public actor PNGFileView: FrameView {
    /// The folder frames are written to.
    public let directory: String
    /// The frame size.
    public let size: FrameSize
    private var written = 0

    /// Creates a view writing `size` frames into `directory`, which must exist.
    public init(directory: String, size: FrameSize) {
        self.directory = directory
        self.size = size
    }

    /// How many frames were written so far.
    public var framesWritten: Int { written }

    public func render(_ viewModel: FrameViewModel) async throws {
        let frame: Frame
        switch viewModel.content {
        case .waiting, .ended:
            return
        case .photo(_, let photoFrame):
            frame = photoFrame
        case .black:
            frame = .black(size)
        }
        written += 1
        let number = String(written)
        let name = "frame-" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".png"
        try PNGEncoder.write(viewModel.displayPower == .on ? frame : .black(size), to: directory + "/" + name)
    }
}
