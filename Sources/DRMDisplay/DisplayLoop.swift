import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// The display's own thread and everything it owns: the open card, the presentation, power,
/// the console, the saved CRTC and the hotplug socket. Set up on the opening thread (one step
/// per function, as in drm-howto), then touched by the display thread only, hence
/// `@unchecked Sendable`. It sleeps in `poll` on the mailbox's wake-up pipe and the uevent
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
    private var isClosed = false
    private let requestedMode: FrameSize?
    private let logger: Logger

    /// Sets up `output` on the open card `device`: buffers, the console in graphics mode, the
    /// saved CRTC, a first black picture (which also finds out early whether we may set
    /// modes), then hotplug events. On failure, what was set up is undone in reverse order.
    init(device: DRMDevice, output: Output, requestedMode: FrameSize?, logger: Logger) throws(DRMError) {
        self.device = device
        self.requestedMode = requestedMode
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

    /// The thread body: draws what `mailbox` brings and follows hotplug events until the
    /// display closes (asked to, or the album ended), then tears down.
    func run(_ mailbox: DisplayMailbox) {
        defer {
            close()
            mailbox.finish()
        }
        let card = String(device.path.split(separator: "/").last ?? "card0")
        while true {
            var fds = [
                pollfd(fd: mailbox.wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: monitor?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                logger.error("display: poll failed: \(String(cString: strerror(errno)))")
                usleep(100_000)
                continue
            }
            if fds[1].revents != 0, let monitor,
                monitor.readEvents().contains(where: { $0.isDisplayChange(card: card) })
            {
                handleHotplug(mailbox)
            }
            guard fds[0].revents != 0 else { continue }
            let (requests, closeRequested) = mailbox.take()
            if !handle(requests) || closeRequested { return }
        }
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
                lastViewModel = request.viewModel
                show(request.viewModel)
            }
            request.done.resume()
        }
        return true
    }

    /// Applies `viewModel`: display power, then the picture. Failures are logged, never thrown:
    /// a display that went away must not stop the slideshow.
    private func show(_ viewModel: FrameViewModel) {
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
            case .photo(_, let frame): try presentation.present(frame)
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
        do {
            try presentation.move(to: next)
        } catch {
            logger.error("cannot allocate \(next.size) buffers for \(next.name): \(error)")
            isConnected = false
            return
        }
        isConnected = true
        mailbox.status = status
        logger.info(
            "display \(next.name) connected at \(DisplayMode(info: next.mode)): drawing the current frame again")
        show(lastViewModel ?? FrameViewModel(content: .black(reason: "display connected"), displayPower: .on))
    }

    /// Teardown, the setup in reverse: hotplug events off, the pending flip awaited, the saved
    /// CRTC and the console's text mode restored, the buffers freed, the card closed (dropping
    /// DRM master). Safe to call more than once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        monitor = nil
        presentation.waitForFlip()
        savedCRTC.restore(on: device, logger: logger)
        terminal?.restore()
        terminal = nil
        presentation.release()
        device.close()
    }
}
