import AlbumDomain

/// One video mode a connector offers (the useful part of libdrm's `drmModeModeInfo`).
public struct DisplayMode: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Visible pixels per row (`hdisplay`).
    public var width: Int
    /// Visible rows (`vdisplay`).
    public var height: Int
    /// Refresh rate in Hz (`vrefresh`).
    public var refreshHz: Int
    /// The connector's preferred mode (`DRM_MODE_TYPE_PREFERRED`), usually the panel's native one.
    public var isPreferred: Bool
    /// Asked for on the kernel command line (`video=`, `DRM_MODE_TYPE_USERDEF`).
    public var isUserDefined: Bool
    /// Interlaced (`DRM_MODE_FLAG_INTERLACE`, like a television's 1080i): never chosen in place
    /// of the display's own mode.
    public var isInterlaced: Bool

    /// Creates a mode description.
    public init(
        width: Int, height: Int, refreshHz: Int, isPreferred: Bool = false, isUserDefined: Bool = false,
        isInterlaced: Bool = false
    ) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
        self.isPreferred = isPreferred
        self.isUserDefined = isUserDefined
        self.isInterlaced = isInterlaced
    }

    /// The mode's size.
    public var size: FrameSize { FrameSize(width: width, height: height) }

    public var description: String { "\(width)x\(height)\(isInterlaced ? "i" : "")@\(refreshHz)" }
}
