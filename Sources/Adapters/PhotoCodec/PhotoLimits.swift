import CPhotoCodecCore

/// Limits that keep hostile or huge photos, of every format, from exhausting memory or time (the
/// decode budget and the decode worker's `RLIMIT_AS` derive from them).
public struct PhotoLimits: Sendable, Equatable {
    /// Largest accepted photo, in pixels (`--max-photo-megapixels`).
    public var maxPixels: UInt64
    /// Largest PNG PLTE, tRNS or eXIf chunk. Text, ICC and unknown chunks are skipped unread.
    public var maxChunkBytes: UInt32

    /// Creates limits; `maxMegapixels` defaults to 100 and is clamped to 0...1,000,000.
    public init(maxMegapixels: Double = 100, maxChunkBytes: UInt32 = 1 << 20) {
        let megapixels = maxMegapixels.isFinite ? min(max(maxMegapixels, 0), 1_000_000) : 100
        self.maxPixels = UInt64(megapixels * 1_000_000)
        self.maxChunkBytes = maxChunkBytes
    }

    /// Most scans a progressive JPEG may have; ordinary encoders write about 10.
    public static let maxJPEGScans: UInt32 = 100

    /// The limits every C codec takes: these, the decode-memory `budget` and the JPEG scan limit.
    package func codecLimits(budget: DecodeMemoryBudget = .default) -> baphoto_limits {
        baphoto_limits(
            max_pixels: maxPixels, budget_bytes: budget.bytes, max_scans: Self.maxJPEGScans,
            max_chunk_bytes: maxChunkBytes, library_bytes: 0)
    }
}
