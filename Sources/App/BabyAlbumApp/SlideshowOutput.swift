import AlbumDomain
import DRMDisplay
import EvdevInput
import Logging
import PNGFileView

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where frames go, and for a screen the input guard that keeps the child out: opened
/// together, closed in reverse order (input grabs first, then the screen).
struct SlideshowOutput {
    /// The view that draws view models.
    let view: any FrameView
    /// The size frames are made for.
    let frameSize: FrameSize
    /// The screen, for DRM output.
    let display: DRMDisplay?
    /// Every input device grabbed, for DRM output.
    let input: InputGuard?
    /// Why there is no screen, when DRM output runs without one (`--without-display run`).
    var unseenBecause: String? = nil

    /// How the screen is mounted: as configured, or for `auto` the display's panel orientation.
    func rotation(_ setting: RotationSetting, logger: Logger) -> ScreenRotation {
        if case .fixed(let rotation) = setting { return rotation }
        guard let display, let orientation = display.panelOrientation else { return .none }
        let rotation = ScreenRotation(panelOrientation: orientation) ?? .none
        logger.info("the panel's orientation is \(orientation): photos are turned for a screen mounted \(rotation)")
        return rotation
    }

    /// Opens the output `configuration` asks for.
    static func open(_ configuration: SlideshowConfiguration, logger: Logger) throws -> SlideshowOutput {
        switch configuration.output {
        case .png(let directory):
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return SlideshowOutput(
                view: PNGFileView(directory: directory, size: configuration.size), frameSize: configuration.size,
                display: nil, input: nil)
        case .memory:
            return SlideshowOutput(
                view: MemoryFrameView(size: configuration.size), frameSize: configuration.size, display: nil,
                input: nil)
        case .drm(nil) where configuration.withoutDisplay == .run:
            guard let missing = DRMProbe.missingDisplay(DRMProbe.cards()) else {
                return try openDisplay(nil, configuration, logger: logger)
            }
            return openWithoutScreen(because: missing, configuration, logger: logger)
        case .drm(let device):
            return try openDisplay(device, configuration, logger: logger)
        }
    }

    /// DRM output with no display there (`--without-display run`): the frames go to no screen;
    /// the input devices are grabbed as for a screen, for the exit button.
    private static func openWithoutScreen(
        because missing: String, _ configuration: SlideshowConfiguration, logger: Logger
    ) -> SlideshowOutput {
        logger.warning(
            "\(missing): the slideshow runs with no screen (--without-display run) and starts again on a display once one is connected"
        )
        // With no screen there is no child to keep out: input that cannot be watched leaves only
        // the exit button unheard, said once (on a screen's start it is an error).
        var input: InputGuard?
        do {
            input = try InputGuard.start(policy: configuration.exitButton, logger: logger)
        } catch {
            logger.warning("the exit button is not heard until a display is connected: \(error)")
        }
        return SlideshowOutput(
            view: UnseenFrameView(), frameSize: configuration.size, display: nil, input: input, unseenBecause: missing)
    }

    /// Opens the screen of DRM output on `device` (`nil`: the first with a display), then grabs
    /// the input devices.
    private static func openDisplay(
        _ device: String?, _ configuration: SlideshowConfiguration, logger: Logger
    ) throws -> SlideshowOutput {
        let display = try DRMDisplay.open(
            device: device, mode: configuration.mode, reportsFades: configuration.reportsLatency, logger: logger)
        do {
            let input = try InputGuard.start(policy: configuration.exitButton, logger: logger)
            return SlideshowOutput(view: display, frameSize: display.size, display: display, input: input)
        } catch {
            display.close()
            throw error
        }
    }

    /// Releases the input devices, then gives the screen back.
    func close() {
        input?.stop()
        display?.close()
    }
}
