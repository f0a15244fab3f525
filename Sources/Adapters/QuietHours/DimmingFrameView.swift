import AlbumDomain
import Logging
import Synchronization

/// A view over another that sets the panel's backlight from the view model
/// (``FrameViewModel/backlightPercent``) before drawing: dimmed during quiet hours, put back
/// to the brightness it had before on waking, at the end, and on ``restore()``. The only code
/// that touches the backlight.
public final class DimmingFrameView: FrameView {
    private let inner: any FrameView
    private let backlight: Backlight
    private let logger: Logger
    /// The brightness before dimming, while dimmed.
    private let saved = Mutex<Int?>(nil)

    /// Creates the view over `inner`, dimming `backlight`.
    public init(over inner: any FrameView, backlight: Backlight, logger: Logger) {
        self.inner = inner
        self.backlight = backlight
        self.logger = logger
    }

    public func render(_ viewModel: FrameViewModel) async throws {
        if viewModel.content == .ended {
            restore()
        } else {
            apply(viewModel.backlightPercent)
        }
        try await inner.render(viewModel)
    }

    /// Puts the brightness back as it was before dimming, if dimmed.
    public func restore() {
        apply(nil)
    }

    private func apply(_ percent: Int?) {
        saved.withLock { saved in
            do throws(BacklightError) {
                if let percent {
                    if saved == nil { saved = try backlight.brightness() }
                    try backlight.setBrightness(backlight.brightness(percent: percent))
                } else if let before = saved {
                    try backlight.setBrightness(before)
                    saved = nil
                }
            } catch {
                logger.warning("backlight: \(error)")
            }
        }
    }
}
