/// A view: an adapter at the edge that draws view models (a screen, a folder of PNG files).
/// It never changes state.
public protocol FrameView: Sendable {
    /// Draws `viewModel`, returning once it is on screen.
    func render(_ viewModel: FrameViewModel) async throws
}
