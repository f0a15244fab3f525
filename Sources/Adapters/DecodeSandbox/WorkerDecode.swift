import AlbumDomain
import PhotoCodec

/// A photo decoded by a worker: the screen-size frame and what the photo's header said.
public struct WorkerDecode: Sendable {
    /// The frame (the request's size; for `auto` that chose to fit, the upright screen's size).
    public let frame: Frame
    /// The photo's header.
    public let header: PhotoHeader
    /// `fill`, or `fit` when the request said `fit` or `auto` chose to fit (the frame upright).
    public let scaleUsed: ScaleMode
    /// The reply's records by type (`BADECODE_EXTRA_*`): EXIF bytes, the decoder's version...
    public let extras: [UInt16: [UInt8]]
    /// The worker's peak resident memory, KiB (for `scripts/bench`).
    public let workerPeakKilobytes: Int
    /// The CPU time its main thread had used when it answered, ns (for `scripts/bench`).
    public let workerCPUNanoseconds: Int64
}
