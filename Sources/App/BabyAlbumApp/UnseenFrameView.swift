import AlbumDomain

/// The view of a frame with no display (`--without-display run`): every photo is decoded and
/// made into a frame as for a screen, and shown to no one.
struct UnseenFrameView: FrameView {
    func render(_ viewModel: FrameViewModel) async throws {}
}
