import AlbumDomain
import FrameFinishing
import LinuxInterfaces
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
        case .photo(_, let photoFrame), .picture(let photoFrame):
            frame = photoFrame
        case .black:
            frame = .black(size)
        }
        written += 1
        let number = String(written)
        let name = "frame-" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".png"
        try write(viewModel.displayPower == .on ? frame : .black(size), as: name)
    }

    /// Writes `frame` to a hidden temporary file, then renames it to `name`: a frame file is
    /// either whole or absent, never partial (a full disk, a folder that cannot hold files).
    private func write(_ frame: Frame, as name: String) throws(PNGFileViewError) {
        let path = directory + "/" + name
        let temporary = directory + "/." + name + ".partial"
        do {
            try PNGEncoder.write(frame, to: temporary)
        } catch {
            removeFileIgnoringErrors(temporary)
            throw PNGFileViewError(path: path, reason: error.reason)
        }
        do {
            try renameFile(temporary, to: path)
        } catch {
            removeFileIgnoringErrors(temporary)
            throw PNGFileViewError(path: path, reason: errnoDescription(error.code))
        }
    }
}
