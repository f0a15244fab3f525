import AlbumDomain
import CDRM
import CDisplayShims
import Logging
import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#endif

/// The DRM/KMS screen: a ``FrameView`` that draws frames with page flips.
///
/// Two XRGB8888 dumb buffers: each frame is written row by row into the back buffer, shown
/// with `drmModePageFlip` (the first with `drmModeSetCrtc`), and ``render(_:)`` returns once
/// the flip event arrived, so a buffer is never written while it is on screen. While open, the
/// console is in `KD_GRAPHICS`; ``close()`` gives it back. Kernel hotplug uevents re-read the
/// connectors: a display that goes away does not stop the program, and when it comes back it
/// is set up again (a new mode if it changed) and the current frame is drawn again.
public final class DRMDisplay: FrameView, @unchecked Sendable {
    /// The connector, CRTC, mode and buffers in use.
    private struct Output {
        var connector: UInt32
        var name: String
        var crtc: UInt32
        var mode: drmModeModeInfo
        var dpmsProperty: UInt32?
        var isConnected = true
    }

    private let lock = Lock()
    private let logger: Logger
    private let device: DRMDevice
    private let requestedMode: FrameSize?
    private var output: Output
    private var buffers: [DumbBuffer] = []
    private var front = 0
    private var needsModeset = true
    private var isPoweredOff = false
    private var isClosed = false
    private var lastViewModel: FrameViewModel?
    private var currentSize: FrameSize
    private var savedCrtc: drmModeCrtcPtr?
    private let savedConnector: UInt32
    private var terminal: VirtualTerminal?
    private var monitor: UeventMonitor?
    private var hotplugThread: JoinableThread?
    private var flipPending = false
    /// Incremented by the page-flip handler (`drmHandleEvent` calls it with this as user data).
    private let flipEvents = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    /// The size of the mode in use: frames are prepared at this size.
    public var size: FrameSize { lock.withLock { currentSize } }

    /// The connector in use, like `HDMI-A-1`.
    public var connectorName: String { lock.withLock { output.name } }

    /// The connector's `panel orientation` (`Normal`, `Upside Down`, `Left Side Up`,
    /// `Right Side Up`), set by the kernel for panels mounted turned; `nil` when it has none.
    public var panelOrientation: String? {
        lock.withLock { device.connectorEnumValue(output.connector, named: "panel orientation") }
    }

    /// Opens `device` (for example `/dev/dri/card0`), or the first card with a connected display
    /// when `nil`, with the connector's preferred mode or `mode` when given.
    public static func open(device: String?, mode: FrameSize?, logger: Logger) throws -> DRMDisplay {
        if let device {
            try DRMDevice(path: device).close()  // a missing node or a permission problem, said plainly
        }
        let cards = device.map { [DRMProbe.card($0)] } ?? DRMProbe.cards()
        guard let card = cards.first(where: \.isChosen), let connector = card.connectors.first(where: \.isChosen) else {
            throw DRMProbe.failure(cards)
        }
        let drm = try DRMDevice(path: card.path)
        if drmIsMaster(drm.fd) == 0 && drmSetMaster(drm.fd) != 0 {
            throw DRMError.masterHeld(card.path)
        }
        guard let resources = drm.resources(), let state = drm.connector(connector.id), state.isConnected,
            let crtc = drm.crtc(for: state, in: resources)
        else {
            throw DRMError.noConnectedDisplay("\(connector.name) on \(card.path) went away while starting")
        }
        let modes = state.modes
        guard let index = ModeChoice.choose(from: modes, requested: mode) else {
            let offered = Set(modes.map { "\($0.width)x\($0.height)" }).sorted().joined(separator: ", ")
            throw DRMError("mode \(mode.map(\.description) ?? "?") is not offered by \(state.name); it offers \(offered)")
        }
        let output = Output(
            connector: state.id, name: state.name, crtc: crtc, mode: state.modeInfos[index],
            dpmsProperty: drm.connectorProperty(state.id, named: "DPMS"))
        let display = try DRMDisplay(device: drm, output: output, requestedMode: mode, logger: logger)
        logger.info(
            "drawing on \(card.path) (\(card.driver ?? "?")) \(state.name) at \(modes[index])",
            metadata: ["device": "\(card.path)", "connector": "\(state.name)"])
        return display
    }

    private init(device: DRMDevice, output: Output, requestedMode: FrameSize?, logger: Logger) throws {
        self.device = device
        self.output = output
        self.requestedMode = requestedMode
        self.logger = logger
        self.currentSize = FrameSize(width: Int(output.mode.hdisplay), height: Int(output.mode.vdisplay))
        self.savedConnector = output.connector
        flipEvents.initialize(to: 0)
        do {
            buffers = try Self.makeBuffers(device.fd, currentSize)
        } catch {
            throw error.drmError(path: device.path)
        }
        savedCrtc = drmModeGetCrtc(device.fd, output.crtc)
        terminal = VirtualTerminal(logger: logger)
        // A black screen straight away; this also finds out early whether we may set modes.
        do {
            try present(nil)
        } catch {
            close()
            throw error.drmError(path: device.path)
        }
        startHotplugListener()
    }

    deinit {
        close()
        flipEvents.deallocate()
    }

    /// Draws `viewModel` and returns once it is on screen. An unchanged view model is not drawn
    /// again. Without a connected display the view model is kept and drawn when one comes back.
    /// The ended album gives the display back: the console returns, as ``close()`` does.
    public func render(_ viewModel: FrameViewModel) async throws {
        if viewModel.content == .ended { return close() }
        lock.withLock {
            guard !isClosed, viewModel != lastViewModel else { return }
            lastViewModel = viewModel
            show(viewModel)
        }
    }

    /// Restores the console (previous CRTC, text mode). Safe to call more than once.
    public func close() {
        let wasOpen = lock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        guard wasOpen else { return }
        monitor?.wake()
        hotplugThread?.join()
        lock.withLock {
            waitForFlip()
            restoreSavedCrtc()
            terminal?.restore()
            terminal = nil
            for buffer in buffers.reversed() { buffer.release() }
            buffers = []
            device.close()
            monitor = nil
        }
    }

    // MARK: Drawing (called with the lock held)

    private static func makeBuffers(_ fd: Int32, _ size: FrameSize) throws(SystemCallError) -> [DumbBuffer] {
        let first = try DumbBuffer(fd: fd, size: size)
        let second = try DumbBuffer(fd: fd, size: size)
        return [first, second]
    }

    /// Applies `viewModel`: display power, then the picture. Failures are logged, never thrown:
    /// a display that went away must not stop the slideshow.
    private func show(_ viewModel: FrameViewModel) {
        do {
            if viewModel.displayPower == .off {
                if !isPoweredOff { try powerOff() }
                return
            }
            if isPoweredOff { try powerOn() }
            guard output.isConnected else {
                logger.debug("no display connected: the frame is kept for when one comes back")
                return
            }
            switch viewModel.content {
            case .photo(_, let frame): try present(frame)
            case .black, .waiting, .ended: try present(nil)
            }
        } catch {
            logger.warning("drawing on \(output.name) failed: \(error)")
            needsModeset = true
        }
    }

    /// Writes `frame` (black for `nil`) into the back buffer and puts it on screen.
    private func present(_ frame: Frame?) throws(SystemCallError) {
        let back = front ^ 1
        buffers[back].draw(frame)
        if needsModeset {
            waitForFlip()
            var connector = output.connector
            var mode = output.mode
            try valueOrErrno("drmModeSetCrtc") {
                drmModeSetCrtc(device.fd, output.crtc, buffers[back].framebuffer, 0, 0, &connector, 1, &mode)
            }
            needsModeset = false
        } else {
            waitForFlip()
            try valueOrErrno("drmModePageFlip") {
                drmModePageFlip(
                    device.fd, output.crtc, buffers[back].framebuffer, CDisplayShims_DRM_MODE_PAGE_FLIP_EVENT,
                    UnsafeMutableRawPointer(flipEvents))
            }
            flipPending = true
            waitForFlip()
        }
        front = back
    }

    /// Waits (at most a second) for the page-flip event of a pending flip.
    private func waitForFlip() {
        guard flipPending else { return }
        defer {
            flipPending = false
            flipEvents.pointee = 0
        }
        var context = drmEventContext()
        context.version = CDisplayShims_DRM_EVENT_CONTEXT_VERSION
        context.page_flip_handler = { _, _, _, _, data in
            data?.assumingMemoryBound(to: Int.self).pointee += 1
        }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Int(deadline.tv_sec) * 1000 + Int(deadline.tv_nsec) / 1_000_000 + 1000
        while flipEvents.pointee == 0 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let remaining = end - (Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000)
            if remaining <= 0 {
                logger.warning("no page-flip event from \(output.name) within a second")
                return
            }
            var fds = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(remaining))
            if ready > 0 {
                drmHandleEvent(device.fd, &context)
            } else if ready < 0 && errno != EINTR {
                return
            }
        }
    }

    /// DPMS off through the connector's "DPMS" property (or by switching the CRTC off).
    private func powerOff() throws(SystemCallError) {
        waitForFlip()
        if let property = output.dpmsProperty {
            try valueOrErrno("drmModeConnectorSetProperty(DPMS off)") {
                drmModeConnectorSetProperty(device.fd, output.connector, property, CDisplayShims_DRM_MODE_DPMS_OFF)
            }
        } else {
            try valueOrErrno("drmModeSetCrtc(off)") { drmModeSetCrtc(device.fd, output.crtc, 0, 0, 0, nil, 0, nil) }
        }
        isPoweredOff = true
        logger.info("display \(output.name) powered off")
    }

    /// Wakes the display; the next frame is drawn with a full modeset.
    private func powerOn() throws(SystemCallError) {
        if let property = output.dpmsProperty {
            try valueOrErrno("drmModeConnectorSetProperty(DPMS on)") {
                drmModeConnectorSetProperty(device.fd, output.connector, property, CDisplayShims_DRM_MODE_DPMS_ON)
            }
        }
        isPoweredOff = false
        needsModeset = true
        logger.info("display \(output.name) powered on")
    }

    private func restoreSavedCrtc() {
        guard let saved = savedCrtc else { return }
        defer {
            drmModeFreeCrtc(saved)
            savedCrtc = nil
        }
        guard device.fd >= 0 else { return }
        var connector = savedConnector
        var mode = saved.pointee.mode
        let result: Int32
        if saved.pointee.buffer_id != 0 && saved.pointee.mode_valid != 0 {
            result = drmModeSetCrtc(
                device.fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y,
                &connector, 1, &mode)
        } else {
            result = drmModeSetCrtc(device.fd, saved.pointee.crtc_id, 0, 0, 0, nil, 0, nil)
        }
        if result != 0 {
            logger.warning("could not restore the console's display mode: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Hotplug

    private func startHotplugListener() {
        do {
            let monitor = try UeventMonitor()
            self.monitor = monitor
            let card = String(device.path.split(separator: "/").last ?? "card0")
            hotplugThread = try JoinableThread { [weak self] in
                while let events = monitor.waitForEvents() {
                    guard events.contains(where: { $0.isDisplayChange(card: card) }) else { continue }
                    guard let self else { return }
                    self.handleHotplug()
                }
            }
        } catch {
            logger.warning("display hotplug events are not available (\(error)); a replugged display will not come back")
        }
    }

    /// Re-reads the connectors after a kernel DRM change event.
    func handleHotplug() {
        logger.debug("display change event")
        lock.withLock {
            guard !isClosed, let resources = device.resources() else { return }
            // Our connector first, then any other connected one.
            let candidates = [output.connector] + resources.connectors.filter { $0 != output.connector }
            for id in candidates {
                guard let state = device.connector(id), state.isConnected, !state.modeInfos.isEmpty,
                    let crtc = device.crtc(for: state, in: resources),
                    let index = ModeChoice.choose(from: state.modes, requested: requestedMode)
                        ?? ModeChoice.choose(from: state.modes, requested: nil)
                else { continue }
                let mode = state.modeInfos[index]
                let unchanged =
                    output.isConnected && id == output.connector && crtc == output.crtc
                    && mode.hdisplay == output.mode.hdisplay && mode.vdisplay == output.mode.vdisplay
                    && mode.clock == output.mode.clock
                if unchanged { return }
                reconnect(state, crtc: crtc, mode: mode)
                return
            }
            if output.isConnected {
                output.isConnected = false
                logger.warning("display \(output.name) disconnected: waiting for it to come back")
            }
        }
    }

    private func reconnect(_ state: DRMDevice.Connector, crtc: UInt32, mode: drmModeModeInfo) {
        waitForFlip()
        let size = FrameSize(width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        if size != currentSize {
            for buffer in buffers.reversed() { buffer.release() }
            buffers = []
            do {
                buffers = try Self.makeBuffers(device.fd, size)
            } catch {
                logger.error("cannot allocate \(size) buffers for \(state.name): \(error)")
                output.isConnected = false
                return
            }
            currentSize = size
        }
        output = Output(
            connector: state.id, name: state.name, crtc: crtc, mode: mode,
            dpmsProperty: device.connectorProperty(state.id, named: "DPMS"))
        needsModeset = true
        front = 0
        logger.info("display \(state.name) connected at \(DisplayMode(info: mode)): drawing the current frame again")
        show(lastViewModel ?? FrameViewModel(content: .black(reason: "display connected"), displayPower: .on))
    }
}
