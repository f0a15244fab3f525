import AlbumDomain
import ArgumentParser
import Foundation
import PhotoCodec

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
        print(String(format: "%.3f", times[times.count / 2]))
    }
}
