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

    /// Creates a mode description.
    public init(width: Int, height: Int, refreshHz: Int, isPreferred: Bool = false, isUserDefined: Bool = false) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
        self.isPreferred = isPreferred
        self.isUserDefined = isUserDefined
    }

    /// The mode's size.
    public var size: FrameSize { FrameSize(width: width, height: height) }

    public var description: String { "\(width)x\(height)@\(refreshHz)" }
}

/// How BabyAlbum picks a mode, as plymouth and kmscube do.
public enum ModeChoice {
    /// The index in `modes` of the mode to use: with `requested`, the first mode of that size
    /// (preferring the preferred one, then the highest refresh rate); without, the mode from the
    /// kernel command line, else the preferred mode, else the largest. `nil` when none fits.
    public static func choose(from modes: [DisplayMode], requested: FrameSize?) -> Int? {
        if let requested {
            var best: Int?
            for index in modes.indices where modes[index].size == requested {
                guard let current = best else {
                    best = index
                    continue
                }
                let (mode, other) = (modes[index], modes[current])
                if (mode.isPreferred && !other.isPreferred)
                    || (mode.isPreferred == other.isPreferred && mode.refreshHz > other.refreshHz)
                {
                    best = index
                }
            }
            return best
        }
        if let index = modes.firstIndex(where: \.isUserDefined) { return index }
        if let index = modes.firstIndex(where: \.isPreferred) { return index }
        var largest: Int?
        for index in modes.indices {
            if let current = largest, modes[current].size.pixelCount >= modes[index].size.pixelCount { continue }
            largest = index
        }
        return largest
    }
}
