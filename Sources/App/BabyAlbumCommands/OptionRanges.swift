import AlbumDomain
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The range every numeric option accepts. A value outside it is a usage error (exit 64) naming
/// the range; these are also the ranges `--help` and the README give.
package enum OptionRanges {
    /// `--interval`, seconds. At least 1: a frame never flashes photos faster than one a second.
    static let interval = 1.0...86_400.0
    /// `--interval` when `BABYALBUM_TEST_FAST_INTERVAL=1` is set (tests and benchmarks only).
    static let testInterval = 0.001...86_400.0
    /// `--count`, photos.
    static let count = 1...1_000_000_000
    /// `--exit-hold`, seconds.
    static let exitHold = 0.0...60.0
    /// `--max-photo-megapixels`.
    static let maxPhotoMegapixels = 1.0...1_000.0
    /// `--fade`, seconds.
    static let fade = fadeSecondsRange
    /// Each side of `--size` and `--mode`, pixels.
    static let side = 16...7_680
    /// `--size` and `--mode` in all: 8K UHD (7680x4320), about 133 MB a frame.
    static let framePixels = 7_680 * 4_320

    /// The environment variable that lowers the `--interval` floor to 1 ms for tests.
    static let fastIntervalVariable = "BABYALBUM_TEST_FAST_INTERVAL"

    /// The `--interval` range in force.
    static var intervalInForce: ClosedRange<Double> {
        ProcessInfo.processInfo.environment[fastIntervalVariable] == "1" ? testInterval : interval
    }

    /// Throws a usage error unless `value` lies in `range`.
    static func check<Value: Comparable>(
        _ value: Value, _ option: String, in range: ClosedRange<Value>, unit: String
    ) throws {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) must be from \(plain(range.lowerBound)) to \(plain(range.upperBound)) \(unit) (got \(plain(value)))"
            )
        }
    }

    /// A number as the help text writes it: `1`, not `1.0`.
    private static func plain<Value>(_ value: Value) -> String {
        if let double = value as? Double, double == double.rounded(), abs(double) < 1e15 { return String(Int(double)) }
        return "\(value)"
    }

    /// Throws a usage error unless `size` is a frame size BabyAlbum accepts.
    package static func check(_ size: FrameSize, _ option: String) throws {
        guard side.contains(size.width), side.contains(size.height), size.width * size.height <= framePixels else {
            throw ValidationError(
                "\(option) must be WxH with each side from \(side.lowerBound) to \(side.upperBound) and at most "
                    + "7680x4320 pixels in all (got \(size.width)x\(size.height))")
        }
    }
}
