import AlbumDomain
import ArgumentParser
import BabyAlbumCommands
import DecodeSandbox
import FrameFinishing
import LinuxInterfaces
import PhotoCodec
import PhotoDecoding

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
/// `babyalbum-benchmark benchmark-decode`: times decode-and-scale alone, for `scripts/bench`.
struct BenchmarkDecode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark-decode",
        abstract: "Print the median milliseconds of decoding and scaling a photo (for scripts/bench).")

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

    @Option(help: "The worker program for every format (default: those installed with this program).")
    var worker: String?

    @Flag(help: "Start each worker when its photo comes (no waiting worker).")
    var cold = false

    @Option(help: "Milliseconds between decodes, untimed (a waiting worker is ready by then).")
    var pauseMs = 0

    @Option(
        help: ArgumentHelp(
            "With a caption style other than none: the median milliseconds of decoding, of drawing the caption, "
                + "and of the slideshow's preparer without and with it."))
    var caption = CaptionStyle.none

    func validate() throws {
        try OptionRanges.check(size.value, "--size")
    }

    func run() throws {
        if let painter = try captionPainter() { return try runWithCaption(painter) }
        var times: [Double] = []
        let clock = ContinuousClock()
        let programs = worker.map { DecodeWorkerPrograms(DecodeWorkerCommand(executable: $0)) } ?? .installed()
        let pool = DecodeWorkerPool(programs: programs, keepsWarm: !cold)
        var workerPeak = 0
        var pathCPU: [Double] = []
        for _ in 0..<max(1, runs) {
            ResourceUsage.pauseThread(for: .milliseconds(pauseMs))
            var workerCPU = 0.0
            let threadStart = ResourceUsage.threadCPUMilliseconds
            let elapsed = try clock.measure {
                if sandboxed {
                    let file = try PhotoFile(path: path)
                    let request = DecodeRequest(size: size.value, scale: scale)
                    var handedOver: Int64 = 0
                    let decoded = try pool.decode(file, path: path, request: request) {
                        handedOver = DecodeWorkerPool.cpuNanoseconds(of: $0)
                    }
                    workerPeak = max(workerPeak, decoded.workerPeakKilobytes)
                    workerCPU = Double(decoded.workerCPUNanoseconds - handedOver) / 1e6
                } else {
                    _ = try PhotoDecoder.decode(path, to: size.value, scale: scale)
                }
            }
            pathCPU.append(ResourceUsage.threadCPUMilliseconds - threadStart + workerCPU)
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        times.sort()
        print(Self.fixed(times[times.count / 2], decimals: 3))
        reportPathCPU(pathCPU.sorted()[pathCPU.count / 2], pool: sandboxed ? pool : nil)
        let usage = ResourceUsage(of: .this)
        let children = ResourceUsage(of: .reapedChildren)
        // On standard error: peak resident memory, MB, of this process and of the largest worker,
        // and CPU time, ms per photo, of this process and its reaped workers together.
        let cpu = (usage.cpuMilliseconds + children.cpuMilliseconds) / Double(max(1, runs))
        let line =
            "peak RSS MB: \(Self.fixed(Double(usage.peakResidentKilobytes) / 1024, decimals: 1)) "
            + "\(Self.fixed(Double(workerPeak) / 1024, decimals: 1))\n"
            + "cpu ms per photo: \(Self.fixed(cpu, decimals: 2))\n"
        writeToStandardError(line)
    }

    /// On standard error: the critical path's CPU (this thread's during the decode, plus the
    /// worker's from its request to its answer), median ms; and the waiting worker's memory.
    private func reportPathCPU(_ median: Double, pool: DecodeWorkerPool?) {
        var line = "critical path cpu ms: \(Self.fixed(median, decimals: 3))\n"
        if let memory = pool?.waitingWorkerMemory() {
            line += "waiting worker kB: \(memory.resident) \(memory.anonymous)\n"
        }
        writeToStandardError(line)
    }

}

extension BenchmarkDecode {
    /// The caption's cost: the in-process decode, the caption drawn on the frame's only holder, and
    /// the sandboxed preparer (the slideshow's) without and with the caption, run for run.
    func runWithCaption(_ painter: CaptionPainter) throws {
        var times: [Double] = []
        var paintTimes: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, runs) {
            var decoded: (frame: Frame, metadata: PhotoMetadata)?
            let elapsed = try clock.measure { decoded = try decode() }
            times.append(Self.milliseconds(elapsed))
            guard let (frame, metadata) = decoded.take() else { continue }
            // The frame's only holder hands it over, as the slideshow's preparer does: drawn in place
            // (no closure around it, which would hold the frame too and force a copy).
            let start = clock.now
            _ = painter.paint(consume frame, metadata: metadata, rotation: .none, name: path)
            paintTimes.append(Self.milliseconds(clock.now - start))
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let (plain, captioned) = try preparerTimes(painter)
        print(
            [median(times), median(paintTimes), median(plain), median(captioned)].map { Self.fixed($0, decimals: 3) }
                .joined(separator: " "))
    }

    /// The slideshow's own preparer without and with the caption, run for run.
    private func preparerTimes(_ painter: CaptionPainter) throws -> ([Double], [Double]) {
        let clock = ContinuousClock()
        let photo = Photo(id: PhotoID(path))
        let plain = SandboxedFramePreparer(scale: scale)
        let captioned = SandboxedFramePreparer(scale: scale, caption: painter)
        var times: ([Double], [Double]) = ([], [])
        for _ in 0..<max(1, runs) {
            var start = clock.now
            _ = try plain.prepareFrame(for: photo, size: size.value)
            times.0.append(Self.milliseconds(clock.now - start))
            start = clock.now
            _ = try captioned.prepareFrame(for: photo, size: size.value)
            times.1.append(Self.milliseconds(clock.now - start))
        }
        return times
    }

    /// Decodes the photo in this process; the frame's only holder is the tuple returned.
    private func decode() throws -> (frame: Frame, metadata: PhotoMetadata) {
        let decoded = try PhotoDecoder.decode(PhotoFile(path: path), path: path, to: size.value, scale: scale)
        return (decoded.frame, decoded.metadata)
    }

    private func captionPainter() throws -> CaptionPainter? {
        guard caption != .none else { return nil }
        let mia = Child(name: "Mia", birthday: CivilDate(year: 2024, month: 3, day: 10)!)
        return CaptionPainter(policy: CaptionPolicy(style: caption, children: [mia]), font: try CaptionFont())
    }

    /// `value` with `decimals` digits after the point (what `%.Nf` prints), without Foundation.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let whole = abs(scaled) / scale
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = String(abs(scaled) % scale)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
