import AlbumDomain

/// The `mode` setting: which of the display's modes to draw in.
public enum ModeRequest: Hashable, Sendable, CustomStringConvertible {
    /// The display's own mode when it is at most ``ModeChoice/largestAutomatic`` (either way up),
    /// else the largest mode within that size with its shape (the default).
    case automatic
    /// The display's own mode, whatever its size (`mode = native`, or `preferred`).
    case native
    /// The mode of this size (`mode = WxH`).
    case size(FrameSize)

    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .native: "native"
        case .size(let size): size.description
        }
    }
}
