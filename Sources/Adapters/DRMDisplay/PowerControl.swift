import CDRM
import CDisplayShims
import LinuxInterfaces
import Logging

/// Display power (DPMS): the connector's "DPMS" property, or switching the CRTC off when the
/// connector has none.
struct PowerControl {
    /// Whether the display was switched off.
    private(set) var isOff = false

    /// Switches `output` off, after any pending flip.
    mutating func switchOff(_ presentation: Presentation, device: DRMDevice, logger: Logger) throws(SystemCallFailure) {
        presentation.waitForFlip()
        let output = presentation.output
        let fd = device.fd
        if let property = output.dpmsProperty {
            try device.call("drmModeConnectorSetProperty(DPMS off)") {
                drmModeConnectorSetProperty(
                    fd, output.connector.rawValue, property.rawValue, CDisplayShims_DRM_MODE_DPMS_OFF)
            }
        } else {
            try device.call("drmModeSetCrtc(off)") { drmModeSetCrtc(fd, output.crtc.rawValue, 0, 0, 0, nil, 0, nil) }
        }
        isOff = true
        logger.info("display \(output.name) powered off")
    }

    /// Wakes `output`; the next picture is shown with a full modeset.
    mutating func switchOn(_ presentation: Presentation, device: DRMDevice, logger: Logger) throws(SystemCallFailure) {
        let output = presentation.output
        let fd = device.fd
        if let property = output.dpmsProperty {
            try device.call("drmModeConnectorSetProperty(DPMS on)") {
                drmModeConnectorSetProperty(
                    fd, output.connector.rawValue, property.rawValue, CDisplayShims_DRM_MODE_DPMS_ON)
            }
        }
        isOff = false
        presentation.requireModeset()
        logger.info("display \(output.name) powered on")
    }
}
