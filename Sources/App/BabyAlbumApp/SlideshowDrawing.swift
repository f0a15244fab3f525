import AlbumDomain
import AlbumRuntime

/// The view side of the one-way flow: turns each album state into a ``FrameViewModel`` and
/// has the view draw it, until the state flow ends. It reports to the heartbeat and the
/// statistics, and tells systemd what is on the screen (``ServiceReadiness``); it never sends
/// anything back to the domain.
struct SlideshowDrawing {
    let view: any FrameView
    let heartbeat: Heartbeat
    let statistics: PresentationStatistics
    let readiness: ServiceReadiness

    /// Draws every state of `states` that looks different, until it finishes. Throws what the
    /// view throws.
    func draw(_ states: StateFlow<AlbumState>) async throws {
        let readiness = self.readiness
        let slowStart = Task {
            try await Task.sleep(for: ServiceReadiness.readyAtTheLatest)
            readiness.startTookLong()
        }
        defer { slowStart.cancel() }
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
            readiness.drawn(viewModel, quiet: state.quiet != nil)
            drawn = viewModel
        }
    }
}
