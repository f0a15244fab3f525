/// Where the frames go, as the command line says it: a value, nothing opened.
public enum FrameOutput: Sendable, Equatable {
    /// The screen, through DRM/KMS: a named card (`/dev/dri/card1`) or the first with a display.
    case drm(device: String?)
    /// PNG files in a folder, one a frame.
    case png(directory: String)
    /// A screen-sized buffer in memory that no one sees (for benchmarks).
    case memory
}
