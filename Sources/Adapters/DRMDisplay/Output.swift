import AlbumDomain
import CDRM

/// The connector, CRTC and mode a display draws on.
struct Output {
    var connector: ConnectorID
    /// Like `HDMI-A-1`.
    var name: String
    var crtc: CRTCID
    var mode: drmModeModeInfo
    /// The connector's "DPMS" property, if it has one.
    var dpmsProperty: PropertyID?
    /// Why this mode and not the display's own one, for the log (``ModeChoice/note``).
    var modeNote: String?

    /// The mode's size: frames are prepared at this size.
    var size: FrameSize { FrameSize(width: Int(mode.hdisplay), height: Int(mode.vdisplay)) }

    /// Whether `other` drives the same connector from the same CRTC with the same timing.
    func isSame(as other: Output) -> Bool {
        connector == other.connector && crtc == other.crtc && mode.hdisplay == other.mode.hdisplay
            && mode.vdisplay == other.mode.vdisplay && mode.clock == other.mode.clock
    }
}
