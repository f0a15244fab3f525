/// The most memory one photo decode may hold beyond a few rows: the whole-image coefficient
/// buffer of a progressive or multi-scan JPEG (about 3 bytes a pixel for 4:2:0, 4 for 4:2:2, 6
/// for 4:4:4, at full size whatever the screen), a lossless WebP's whole image (5 bytes a pixel
/// with its transform and entropy images), a lossy WebP's alpha plane, the first frame's bytes
/// of a WebP, and the kept EXIF and ICC profile. Baseline JPEG, lossy WebP output and PNG cost memory in proportion to
/// the screen and do not need it.
///
/// The default, 96 MiB, fits a 512 MB Raspberry Pi Zero 2 W without swapping: the process
/// otherwise needs about 20–40 MB at 1080p, and at most one photo is prepared at a time. It
/// admits a 12 MP progressive JPEG at 4:4:4 (72 MB), a 24 MP one at 4:2:0 (72 MB) and a lossless
/// WebP of about 18 MP (5 bytes a pixel, plus its data); a larger one is skipped with the budget
/// named in the reason.
public struct DecodeMemoryBudget: Sendable, Equatable, CustomStringConvertible {
    /// The budget in bytes.
    public var bytes: UInt64

    /// A budget of `bytes`.
    public init(bytes: UInt64) {
        self.bytes = bytes
    }

    /// A budget of `megabytes` MiB.
    public init(megabytes: Int) {
        self.bytes = UInt64(max(0, megabytes)) << 20
    }

    /// 96 MiB: fits a 512 MB Raspberry Pi Zero 2 W.
    public static let `default` = DecodeMemoryBudget(megabytes: 96)

    /// "96 MB", as reasons and `doctor` name it.
    public var description: String { "\(bytes >> 20) MB" }
}
