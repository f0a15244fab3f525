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

    @Argument(help: "The photo to decode (PNG, JPEG, WebP, HEIC, HEIF or AVIF).")
    var path: String

    @Option(help: "Target size, WxH.")
    var size = SizeOption(FrameSize(width: 1920, height: 1080))

    @Option(help: "fill or fit.")
    var scale = ScaleMode.fill

    @Option(help: "How many decodes.")
    var runs = 5

    @Flag(help: "Decode in sandboxed workers, as the slideshow does.")
    var sandboxed = false

    @Option(help: "The worker program (default: this program's decode-worker).")
    var worker: String?

    @Flag(help: "Start each worker when its photo comes (no waiting worker).")
    var cold = false

    @Option(help: "Milliseconds between decodes, untimed (a waiting worker is ready by then).")
    var pauseMs = 0

    func validate() throws {
        try OptionRanges.check(size.value, "--size")
    }

    func run() throws {
        var times: [Double] = []
        let clock = ContinuousClock()
        let command = worker.map { DecodeWorkerCommand(executable: $0, arguments: []) } ?? .thisProgram()
        let pool = DecodeWorkerPool(command: command, keepsWarm: !cold)
        var workerPeak = 0
        for _ in 0..<max(1, runs) {
            if pauseMs > 0 { usleep(UInt32(pauseMs) * 1000) }
            let elapsed = try clock.measure {
                if sandboxed {
                    let file = try PhotoFile(path: path)
                    let request = DecodeRequest(size: size.value, scale: scale)
                    workerPeak = max(
                        workerPeak, try pool.decode(file, path: path, request: request).workerPeakKilobytes)
                } else {
                    _ = try PhotoDecoder.decode(path, to: size.value, scale: scale)
                }
            }
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        times.sort()
        print(String(format: "%.3f", times[times.count / 2]))
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        // On standard error: peak resident memory, MB, of this process and of the largest worker.
        let memory = String(
            format: "peak RSS MB: %.1f %.1f\n", Double(usage.ru_maxrss) / 1024, Double(workerPeak) / 1024)
        FileHandle.standardError.write(Data(memory.utf8))
    }
}
