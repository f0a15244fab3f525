import AlbumDomain
import CDRM
import CDisplayShims
import LinuxInterfaces
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Puts pictures on one output with two XRGB8888 dumb buffers: a picture is written into the
/// back buffer by a fill closure, then shown, with `drmModeSetCrtc` for the first picture (and
/// after a mode change or a wake-up), else with a page flip whose event is awaited, so a buffer
/// is never written while it is on screen. Runs on the display's own thread: the wait for the
/// flip blocks that thread, never Swift's cooperative pool.
///
/// A later transition (a CPU crossfade, a hardware-plane fade) presents several pictures in a
/// row through ``present(_:)``, each filled by its own closure.
final class Presentation {
    /// Writes a picture: the back buffer's pixels, its pitch in bytes and its size.
    typealias Fill = (_ pixels: UnsafeMutableRawPointer, _ pitch: Int, _ size: FrameSize) -> Void

    private let device: DRMDevice
    private let logger: Logger
    private(set) var output: Output
    private var buffers: [DumbBuffer]
    private var front = 0
    private var needsModeset = true
    private var flipPending = false
    /// Incremented by the page-flip handler (`drmHandleEvent` passes it as user data).
    private let flipEvents = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    /// Allocates the two buffers for `output`'s mode.
    init(device: DRMDevice, output: Output, logger: Logger) throws(SystemCallFailure) {
        self.device = device
        self.output = output
        self.logger = logger
        flipEvents.initialize(to: 0)
        do {
            buffers = try Self.makeBuffers(device, output.size)
        } catch {
            flipEvents.deallocate()
            throw error
        }
    }

    deinit {
        release()
        flipEvents.deallocate()
    }

    /// The size of the mode in use.
    var size: FrameSize { output.size }

    /// Fills the back buffer with `fill` and shows it; returns once it is on screen.
    func present(_ fill: Fill) throws(SystemCallFailure) {
        guard buffers.count == 2 else {  // a failed move left none: nothing to draw into
            throw SystemCallFailure(operation: "present", path: device.path, code: ENOMEM)
        }
        let back = front ^ 1
        waitForFlip()
        buffers[back].fill(fill)
        if needsModeset {
            try setCrtc(buffers[back].framebuffer)
            needsModeset = false
        } else {
            try pageFlip(to: buffers[back].framebuffer)
            waitForFlip()
        }
        front = back
    }

    /// Shows `frame`, centred on black (black for `nil`).
    func present(_ frame: Frame?) throws(SystemCallFailure) {
        try present { pixels, pitch, size in FrameBlit.write(frame, to: pixels, pitch: pitch, screen: size) }
    }

    /// The next picture is shown with a full modeset (after a wake-up or a failure).
    func requireModeset() { needsModeset = true }

    /// Moves to `output` (after a hotplug), with new buffers if its size differs.
    func move(to output: Output) throws(SystemCallFailure) {
        waitForFlip()
        if output.size != size || buffers.isEmpty {
            release()
            buffers = try Self.makeBuffers(device, output.size)
        }
        self.output = output
        needsModeset = true
        front = 0
    }

    /// Waits for a pending flip, then frees the buffers (in reverse order). Safe to call twice.
    func release() {
        waitForFlip()
        for buffer in buffers.reversed() { buffer.release() }
        buffers = []
    }

    private static func makeBuffers(_ device: DRMDevice, _ size: FrameSize) throws(SystemCallFailure) -> [DumbBuffer] {
        let first = try DumbBuffer(device: device, size: size)
        let second = try DumbBuffer(device: device, size: size)
        return [first, second]
    }

    private func setCrtc(_ framebuffer: FramebufferID) throws(SystemCallFailure) {
        var connector = output.connector.rawValue
        var mode = output.mode
        let (fd, crtc) = (device.fd, output.crtc.rawValue)
        try device.call("drmModeSetCrtc") {
            drmModeSetCrtc(fd, crtc, framebuffer.rawValue, 0, 0, &connector, 1, &mode)
        }
    }

    private func pageFlip(to framebuffer: FramebufferID) throws(SystemCallFailure) {
        let (fd, crtc, events) = (device.fd, output.crtc.rawValue, UnsafeMutableRawPointer(flipEvents))
        try device.call("drmModePageFlip") {
            drmModePageFlip(fd, crtc, framebuffer.rawValue, CDisplayShims_DRM_MODE_PAGE_FLIP_EVENT, events)
        }
        flipPending = true
    }

    /// Waits (at most a second) for the page-flip event of a pending flip.
    func waitForFlip() {
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
        let deadline = ContinuousClock.now + .seconds(1)
        while flipEvents.pointee == 0 {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                logger.warning("no page-flip event from \(output.name) within a second")
                return
            }
            do throws(SystemCallFailure) {
                if try waitUntilReadable(device.fd, timeout: remaining) { drmHandleEvent(device.fd, &context) }
            } catch {
                return
            }
        }
    }
}
