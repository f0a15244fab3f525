import AlbumDomain
import AlbumRuntime
import SystemdNotify

/// The view side of the one-way flow: turns each album state into a ``FrameViewModel`` and
/// has the view draw it, until the state flow ends. It reports to the heartbeat and the
/// statistics; it never sends anything back to the domain.
struct SlideshowDrawing {
    let view: any FrameView
    let heartbeat: Heartbeat
    let statistics: PresentationStatistics
    let notifier: SystemdNotifier

    /// Draws every state of `states` that looks different, until it finishes. Throws what the
    /// view throws.
    func draw(_ states: StateFlow<AlbumState>) async throws {
        var drawn: FrameViewModel?
        for await state in states {
            let viewModel = FrameViewModel(state: state)
            guard viewModel != drawn else { continue }
            heartbeat.drawingStarted()
            try await view.render(viewModel)
            // A photo kept still in quiet hours is not a slideshow waiting for ticks.
            let isPhoto = if case .photo = viewModel.content, state.quiet == nil { true } else { false }
            heartbeat.drawingFinished(photo: isPhoto)
            if isPhoto { statistics.photoPresented() }
            if drawn == nil { try? notifier.ready(status: "showing the album") }
            drawn = viewModel
        }
    }
}
