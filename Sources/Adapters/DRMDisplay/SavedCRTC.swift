import AlbumDomain
import CDRM
import CDisplayShims
import LinuxInterfaces
import Logging

/// The CRTC as the console left it (drm-howto's `saved_crtc`), put back when the display closes.
final class SavedCRTC {
    private var saved: drmModeCrtcPtr?
    private let connector: ConnectorID

    /// Saves the state of `output`'s CRTC.
    init(device: DRMDevice, output: Output) {
        saved = drmModeGetCrtc(device.fd, output.crtc.rawValue)
        connector = output.connector
    }

    deinit { discard() }

    /// Sets the CRTC back as it was (its buffer and mode, or off). Only the first call does.
    func restore(on device: DRMDevice, logger: Logger) {
        guard let saved, device.fd >= 0 else { return }
        defer { discard() }
        var connector = connector.rawValue
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
            logger.warning("could not restore the console's display mode: \(lastErrnoDescription())")
        }
    }

    private func discard() {
        if let saved { drmModeFreeCrtc(saved) }
        saved = nil
    }
}
