import AlbumDomain
import ArgumentParser
import PhotoCodec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `babyalbum benchmark-decode`: times decode-and-scale alone, for `scripts/bench` (hidden).
struct BenchmarkDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark-decode",
        abstract: "Print the median milliseconds of decoding and scaling a photo (for scripts/bench).",
        shouldDisplay: false)

    @Argument(help: "The photo to decode (PNG, JPEG or WebP).")
    var path: String

    @Option(help: "Target size, WxH.")
    var size = SizeOption(FrameSize(width: 1920, height: 1080))

    @Option(help: "fill or fit.")
    var scale = ScaleMode.fill

    @Option(help: "How many decodes.")
    var runs = 5

    func validate() throws {
        try OptionRanges.check(size.value, "--size")
    }

    func run() throws {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, runs) {
            let elapsed = try clock.measure { _ = try PhotoDecoder.decode(path, to: size.value, scale: scale) }
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        times.sort()
        let microseconds = Int((times[times.count / 2] * 1000).rounded())
        let fraction = String(microseconds % 1000)
        print("\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction)
    }
}
