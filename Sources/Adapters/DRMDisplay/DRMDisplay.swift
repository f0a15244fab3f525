import AlbumDomain
import LinuxInterfaces
import Logging

/// The DRM/KMS screen: a ``FrameView`` that draws frames with page flips.
///
/// Four parts: ``OutputChoice`` picks the card (opened once), connector, CRTC and mode;
/// ``Presentation`` shows pictures with two dumb buffers and page flips; ``PowerControl``
/// switches the display off and on; ``DisplayLoop`` follows hotplug events. They live on the
/// display's own thread: ``render(_:)`` hands the view model over (``DisplayMailbox``) and
/// returns once it is on screen. While open, the console is in `KD_GRAPHICS`; ``close()``, or
/// a view model saying the album has ended, gives it back. A display that goes away does not
/// stop the program; when it comes back it is set up again and the current frame drawn again.
public final class DRMDisplay: FrameView, Sendable {
    private let mailbox: DisplayMailbox
    private let loop: PollLoop

    /// The size of the mode in use: frames are prepared at this size.
    public var size: FrameSize { mailbox.status.size }

    /// Each new size after a hotplug that brought another mode or another screen (the newest
    /// one if several came while nobody listened); finishes when the display closes.
    public var sizeChanges: AsyncStream<FrameSize> { mailbox.sizeChanges }

    /// The connector in use, like `HDMI-A-1`.
    public var connectorName: String { mailbox.status.connectorName }

    /// The connector's `panel orientation` (`Normal`, `Upside Down`, `Left Side Up`,
    /// `Right Side Up`), set by the kernel for panels mounted turned; `nil` when it has none.
    public var panelOrientation: String? { mailbox.status.panelOrientation }

    /// Opens `device` (for example `/dev/dri/card0`), or the first card with a connected display
    /// when `nil`, in the mode ``ModeChoice`` picks for `mode`. With
    /// `reportsFades`, each fade logs its pictures, vblanks and real duration.
    public static func open(
        device: String?, mode: ModeRequest = .automatic, reportsFades: Bool = false, logger: Logger
    ) throws -> DRMDisplay {
        let (card, output) = try OutputChoice.open(path: device, mode: mode)
        let message: Logger.Message =
            "drawing on \(card.path) (\(card.driverName ?? "?")) \(output.name) at \(DisplayMode(info: output.mode))"
        let metadata: Logger.Metadata = ["device": "\(card.path)", "connector": "\(output.name)"]
        let loop = try DisplayLoop(
            device: card, output: output, requestedMode: mode, reportsFades: reportsFades, logger: logger)
        let display = try DRMDisplay(loop: loop)
        if let note = output.modeNote { logger.info("\(note)", metadata: metadata) }
        logger.info(message, metadata: metadata)
        return display
    }

    private init(loop: DisplayLoop) throws(DRMError) {
        do throws(SystemCallFailure) {
            let mailbox = try DisplayMailbox(status: loop.status)
            self.mailbox = mailbox
            loop.attach(mailbox)
            self.loop = try PollLoop(name: "display", logger: loop.logger, client: loop)
        } catch {
            loop.close()
            throw DRMError(error)
        }
    }

    deinit { close() }

    /// Draws `viewModel` and returns once it is on screen. An unchanged view model is not drawn
    /// again. Without a connected display the view model is kept and drawn when one comes back.
    /// The ended album gives the display back: the console returns, as ``close()`` does.
    public func render(_ viewModel: FrameViewModel) async throws {
        await withCheckedContinuation { done in
            mailbox.post(DisplayMailbox.Request(viewModel: viewModel, done: done))
        }
    }

    /// Restores the console (previous CRTC, text mode) and stops the display's thread. Safe to
    /// call more than once.
    public func close() {
        mailbox.requestClose()
        loop.join()
    }
}
