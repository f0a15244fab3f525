import AlbumDomain
import LinuxInterfaces
import Logging

/// The display's own thread and everything it owns: the open card, the presentation, power,
/// the console, the saved CRTC and the hotplug socket. Set up on the opening thread (one step
/// per function, as in drm-howto), then touched by the display thread only, hence
/// `@unchecked Sendable`. Its ``PollLoop`` sleeps on the mailbox's wake-up pipe and the uevent
/// socket; page flips are awaited here too, never on Swift's cooperative pool.
final class DisplayLoop: @unchecked Sendable {
    private let device: DRMDevice
    private let presentation: Presentation
    private var terminal: VirtualTerminal?
    private let savedCRTC: SavedCRTC
    private var monitor: UeventMonitor?
    private var power = PowerControl()
    private var isConnected = true
    private var lastViewModel: FrameViewModel?
    /// The fade being shown: while there is one, the loop presents a picture per vblank.
    private var crossfade: Crossfade?
    private var isClosed = false
    private let requestedMode: ModeRequest
    private let reportsFades: Bool
    let logger: Logger
    /// Where the requests come from (see ``attach(_:)``).
    private var mailbox: DisplayMailbox?
    private var card: String { String(device.path.split(separator: "/").last ?? "card0") }

    /// Sets up `output` on the open card `device`: buffers, the console in graphics mode, the
    /// saved CRTC, a first black picture (which also finds out early whether we may set
    /// modes), then hotplug events. On failure, what was set up is undone in reverse order.
    /// With `reportsFades`, each fade logs its pictures, vblanks and real duration.
    init(
        device: DRMDevice, output: Output, requestedMode: ModeRequest, reportsFades: Bool, logger: Logger
    ) throws(DRMError) {
        self.device = device
        self.requestedMode = requestedMode
        self.reportsFades = reportsFades
        self.logger = logger
        do {
            presentation = try Presentation(device: device, output: output, logger: logger)
        } catch {
            device.close()
            throw DRMError(error)
        }
        terminal = VirtualTerminal(logger: logger)
        savedCRTC = SavedCRTC(device: device, output: output)
        do {
            try presentation.present(nil)
        } catch {
            close()
            throw DRMError(error)
        }
        monitor = openUeventMonitor()
    }

    /// What the display shows now: its size, connector and the connector's panel orientation.
    var status: DisplayMailbox.Status {
        let output = presentation.output
        return DisplayMailbox.Status(
            size: output.size, connectorName: output.name,
            panelOrientation: device.connectorEnumValue(output.connector, named: "panel orientation"))
    }

    private func openUeventMonitor() -> UeventMonitor? {
        do {
            return try UeventMonitor()
        } catch {
            logger.warning(
                "display hotplug events are not available (\(error)); a replugged display will not come back")
            return nil
        }
    }

    /// Hands over the mailbox whose requests the loop draws, before its ``PollLoop`` starts.
    func attach(_ mailbox: DisplayMailbox) {
        self.mailbox = mailbox
    }

    /// Draws each request's view model and resumes its caller; `false` once the album ended
    /// (the console is back before that caller resumes).
    private func handle(_ requests: [DisplayMailbox.Request]) -> Bool {
        for (index, request) in requests.enumerated() {
            guard request.viewModel.content != .ended else {
                close()
                for remaining in requests[index...] { remaining.done.resume() }
                return false
            }
            if request.viewModel != lastViewModel {
                finishCrossfade()
                // Only the newest of several waiting photos fades in.
                show(request.viewModel, fadingFrom: index == requests.count - 1 ? lastViewModel : nil)
                lastViewModel = request.viewModel
            }
            request.done.resume()
        }
        return true
    }

    /// Starts the fade `viewModel` asks for when `onScreen` (lit) shows its first frame: the
    /// first picture is presented now, the rest by the loop. `false` when there is no fade.
    private func startCrossfade(_ viewModel: FrameViewModel, from onScreen: FrameViewModel?) -> Bool {
        guard !power.isOff, isConnected,
            let fade = Crossfade(viewModel, onScreen: onScreen, screen: presentation.size)
        else { return false }
        crossfade = fade
        presentNextFadePicture()
        return true
    }

    /// Presents the running fade's next picture; after its last, logs the fade and ends it.
    private func presentNextFadePicture() {
        guard var fade = crossfade else { return }
        do throws(SystemCallFailure) {
            let isLast = try fade.presentNextPicture(on: presentation)
            crossfade = fade
            if isLast { finishCrossfade() }
        } catch {
            logger.warning("drawing a fade on \(presentation.output.name) failed: \(DRMError(error))")
            crossfade = nil
            presentation.requireModeset()
        }
    }

    /// Ends the running fade (done, or replaced by a newer view model) and logs it.
    private func finishCrossfade() {
        guard let fade = crossfade else { return }
        crossfade = nil
        let line = fade.summary(refreshRate: Int(presentation.output.mode.vrefresh))
        logger.log(level: reportsFades ? .notice : .debug, "\(line)")
    }

    /// Applies `viewModel`: display power, then the picture (faded in from `onScreen` when the
    /// view model asks for a fade and `onScreen` shows where it starts). Failures are logged,
    /// never thrown: a display that went away must not stop the slideshow.
    private func show(_ viewModel: FrameViewModel, fadingFrom onScreen: FrameViewModel? = nil) {
        if startCrossfade(viewModel, from: onScreen) { return }
        do throws(SystemCallFailure) {
            if viewModel.displayPower == .off {
                if !power.isOff { try power.switchOff(presentation, device: device, logger: logger) }
                return
            }
            if power.isOff { try power.switchOn(presentation, device: device, logger: logger) }
            guard isConnected else {
                logger.debug("no display connected: the frame is kept for when one comes back")
                return
            }
            switch viewModel.content {
            case .photo(_, let frame), .picture(let frame): try presentation.present(frame)
            case .black, .waiting, .ended: try presentation.present(nil)
            }
        } catch {
            logger.warning("drawing on \(presentation.output.name) failed: \(DRMError(error))")
            presentation.requireModeset()
        }
    }

    /// Re-reads the connectors after a kernel DRM change event: a display that went away is
    /// waited for; one that came back (or another one) is set up again and the current frame
    /// drawn again.
    private func handleHotplug(_ mailbox: DisplayMailbox) {
        logger.debug("display change event")
        guard let resources = device.resources() else { return }
        guard
            let next = OutputChoice.reconnect(
                device, resources: resources, current: presentation.output, requested: requestedMode)
        else {
            if isConnected {
                logger.warning("display \(presentation.output.name) disconnected: waiting for it to come back")
            }
            isConnected = false
            return
        }
        if isConnected && next.isSame(as: presentation.output) { return }
        finishCrossfade()
        do {
            try presentation.move(to: next)
        } catch {
            logger.error("cannot allocate \(next.size) buffers for \(next.name): \(error)")
            isConnected = false
            return
        }
        isConnected = true
        mailbox.status = status
        if let note = next.modeNote { logger.info("\(note)") }
        logger.info(
            "display \(next.name) connected at \(DisplayMode(info: next.mode)): drawing the current frame again")
        show(redrawnAfterHotplug())
    }

    /// What to draw on a display that came back: the last view model, unless its photo was made
    /// for another size (then black, until the photo comes again at the new size: nothing is
    /// centred at the old size).
    private func redrawnAfterHotplug() -> FrameViewModel {
        guard let last = lastViewModel else {
            return FrameViewModel(content: .black(reason: "display connected"), displayPower: .on)
        }
        guard case .photo(_, let frame) = last.content, frame.size != presentation.size else { return last }
        return FrameViewModel(
            content: .black(reason: "a new mode: the photo is made again"), displayPower: last.displayPower)
    }

    /// Teardown, the setup in reverse: hotplug events off, the pending flip awaited, the saved
    /// CRTC and the console's text mode restored, the buffers freed, the card closed (dropping
    /// DRM master). Safe to call more than once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        crossfade = nil
        monitor = nil
        presentation.waitForFlip()
        savedCRTC.restore(on: device, logger: logger)
        terminal?.restore()
        terminal = nil
        presentation.release()
        device.close()
    }
}

/// The display thread's turns: draws what the mailbox brings and follows hotplug events until
/// the display closes (asked to, or the album ended), then tears down. It sleeps unless a fade
/// is running; then it checks for news without waiting and presents the fade's next picture,
/// so a request (the end of the album) is taken within one picture.
extension DisplayLoop: PollLoopClient {
    func nextWait() -> PollWait {
        PollWait(
            [(mailbox?.wakeup.fileDescriptor ?? -1, .readable), (monitor?.fileDescriptor ?? -1, .readable)],
            timeout: crossfade == nil ? nil : .zero)
    }

    func handle(_ ready: [PollEvents]) -> PollNext {
        guard let mailbox else { return .end }
        if !ready[1].isEmpty, let monitor, monitor.readEvents().contains(where: { $0.isDisplayChange(card: card) }) {
            handleHotplug(mailbox)
        }
        if !ready[0].isEmpty {
            let (requests, closeRequested) = mailbox.take()
            if !handle(requests) || closeRequested { return .end }
        }
        if crossfade != nil { presentNextFadePicture() }
        return .wait
    }

    func loopEnded() {
        close()
        mailbox?.finish()
    }
}
