import AlbumDomain

/// A view without a screen for benchmarks: copies each frame row by row into a screen-sized
/// buffer, as the DRM view copies into its back buffer, and shows it to no one.
actor MemoryFrameView: FrameView {
    private var screen: [UInt32]
    private let size: FrameSize

    init(size: FrameSize) {
        self.size = size
        screen = [UInt32](repeating: 0, count: size.pixelCount)
    }

    func render(_ viewModel: FrameViewModel) async throws {
        guard case .photo(_, let frame) = viewModel.content, frame.size == size else {
            for index in screen.indices { screen[index] = 0 }
            return
        }
        let width = size.width
        frame.pixels.withUnsafeBufferPointer { source in
            screen.withUnsafeMutableBufferPointer { destination in
                for row in 0..<size.height {
                    let start = row * width
                    _ = UnsafeMutableBufferPointer(rebasing: destination[start..<start + width])
                        .update(fromContentsOf: source[start..<start + width])
                }
            }
        }
    }
}
