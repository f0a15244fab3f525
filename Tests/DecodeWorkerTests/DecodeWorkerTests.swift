import AlbumDomain
import CHEIFCodec
import CPhotoCodecCore
import CSandbox
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The decode worker: the same frames as decoding in process, its sandbox, and a slideshow that
/// carries on whatever happens to a worker.
@Suite struct DecodeWorkerTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: 64, height: 48)

    @Test(arguments: ["pngsuite/png/basn2c08.png", "photos/jpeg/progressive.jpg", "photos/webp/lossy.webp"])
    func decodesEveryFormatLikeTheInProcessDecoder(relative: String) throws {
        let path = WorkerSupport.fixture(relative)
        for scale in [ScaleMode.fill, .fit] {
            for rotation in [ScreenRotation.none, .clockwise90] {
                let request = DecodeRequest(size: size, scale: scale, rotation: rotation)
                let decoded = try WorkerSupport.decode(path, pool: pool, request: request)
                let local = try PhotoDecoder.decode(path, to: size, scale: scale, rotation: rotation)
                #expect(
                    decoded.frame.size == local.size && decoded.frame.pixels == local.pixels,
                    "\(relative) \(scale) \(rotation)")
                // The reply names the library that decoded it, as the entry point does in process.
                let version = decoded.extras[UInt16(BADECODE_EXTRA_DECODER_VERSION)]
                #expect(
                    version.map { String(decoding: $0, as: UTF8.self) }
                        == PhotoDecoder.codecVersion(of: decoded.header.format) && version != nil)
            }
        }
    }

    @Test func aWorkerRunsConfinedAndKilledMidDecodeTheNextPhotoIsShown() throws {
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        for (signal, name) in [(SIGKILL, "KILL"), (SIGSEGV, "SEGV"), (SIGSYS, "SYS")] {
            var seccomp: String?
            var noNewPrivileges: String?
            var threads = 0
            let hang = DecodeRequest(size: size, scale: .fill, testAction: Int32(BADECODE_TEST_HANG))
            let error = #expect(throws: PhotoError.self) {
                _ = try WorkerSupport.decode(photo, pool: pool, request: hang) { pid in
                    #expect(WorkerSupport.waitUntilConfined(pid))
                    seccomp = WorkerSupport.statusField("Seccomp", pid: pid)
                    noNewPrivileges = WorkerSupport.statusField("NoNewPrivs", pid: pid)
                    // Every thread, not only the first, is confined.
                    #expect(Set(WorkerSupport.threadFields("Seccomp", pid: pid)) == ["2"])
                    #expect(Set(WorkerSupport.threadFields("NoNewPrivs", pid: pid)) == ["1"])
                    threads = WorkerSupport.threadFields("Seccomp", pid: pid).count
                    kill(pid, signal)
                }
            }
            #expect(seccomp == "2")
            #expect(noNewPrivileges == "1")
            #expect(threads >= 1)
            #expect(error?.kind == .decoderFailed)
            #expect(error?.reason.contains("killed by SIG\(name)") == true, "SIG\(name): \(error?.reason ?? "")")
            // The next photo, with the same pool.
            let next = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill))
            #expect(next.frame.pixels == (try PhotoDecoder.decode(photo, to: size, scale: .fill)).pixels)
        }
    }

    @Test func openingAFileInsideTheSandboxFailsWithEACCESAndTheDecodeGoesOn() throws {
        // A library's probe of a file (libjpeg-turbo's /proc/cpuinfo on arm64) takes its fallback:
        // the worker exits with status 7 if open("/etc/passwd") returns anything but EACCES.
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        let request = DecodeRequest(size: size, scale: .fill, testAction: Int32(BADECODE_TEST_OPEN_FILE))
        let decoded = try WorkerSupport.decode(photo, pool: pool, request: request)
        #expect(decoded.frame.pixels == (try PhotoDecoder.decode(photo, to: size, scale: .fill)).pixels)
    }

    @Test func aCallOutsideTheAllowListIsNamedOnceAndThePhotoIsSkippedAtOnce() throws {
        #if arch(x86_64)
            let socketCall = "system call 41 (socket)"
        #else
            let socketCall = "system call 198 (socket)"
        #endif
        var alarms: [String] = []
        let heard = Mutex<[String]>([])
        let watched = DecodeWorkerPool(
            command: WorkerSupport.command, deadline: .seconds(20),
            refusalAlarm: { call in heard.withLock { $0.append(call) } })
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        let request = DecodeRequest(size: size, scale: .fill, testAction: Int32(BADECODE_TEST_FORBIDDEN_CALL))
        for _ in 0..<3 {
            let error = #expect(throws: PhotoError.self) {
                _ = try WorkerSupport.decode(photo, pool: watched, request: request)
            }
            #expect(error?.kind == .sandboxRefused(systemCall: socketCall))
            #expect(error?.reason.hasPrefix("the decode sandbox refused \(socketCall), ") == true)
            #expect(error?.isLasting == true, "a refused call is refused again: no retry")
        }
        alarms = heard.withLock { $0 }
        #expect(alarms == [socketCall], "one alarm for three photos")
        #expect(watched.refusedCalls == [socketCall: 3])
        // The pool carries on.
        let next = try WorkerSupport.decode(photo, pool: watched, request: DecodeRequest(size: size, scale: .fill))
        #expect(next.frame.pixels == (try PhotoDecoder.decode(photo, to: size, scale: .fill)).pixels)
    }

    @Test func aDecodeOverTheDeadlineIsStopped() throws {
        let quick = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(1))
        // The deadline is the decode's: its worker is started and confined ahead of the photo, as
        // the slideshow's are (a start under emulation alone can take longer than a second).
        quick.startWaitingWorker()
        #expect(quick.waitingWorkerMemory(timeout: .seconds(120)) != nil, "the waiting worker is confined")
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        let request = DecodeRequest(size: size, scale: .fill, testAction: Int32(BADECODE_TEST_HANG))
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(photo, pool: quick, request: request)
        }
        #expect(error?.reason == "the decode worker took longer than 1.0 seconds and was stopped")
        // Wall-clock time, which a busy board stretches: the photo gets its second try.
        #expect(error?.kind == .overDeadline && error?.isLasting == false)
        // The next photo, with the same pool, once the worker started after the stopped one is
        // confined (in the arm64 VM its start alone outlasted the second).
        #expect(quick.waitingWorkerMemory(timeout: .seconds(120)) != nil, "the next waiting worker is confined")
        #expect(
            (try? WorkerSupport.decode(photo, pool: quick, request: DecodeRequest(size: size, scale: .fill))) != nil)
    }

    /// The slideshow's per-photo deadline, shorter than the pool's: half a second is half a
    /// second (it was once truncated to whole seconds, and 0 ms stopped every decode at once).
    @Test func aRequestsOwnDeadlineOfHalfASecondIsKept() throws {
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        let hang = DecodeRequest(
            size: size, scale: .fill, deadline: .milliseconds(500), testAction: Int32(BADECODE_TEST_HANG))
        // Its worker confined ahead, as the slideshow's is: what is timed is the decode alone.
        pool.startWaitingWorker()
        #expect(pool.waitingWorkerMemory(timeout: .seconds(120)) != nil, "the waiting worker is confined")
        let started = ContinuousClock.now
        let error = #expect(throws: PhotoError.self) { _ = try WorkerSupport.decode(photo, pool: pool, request: hang) }
        let waited = ContinuousClock.now - started
        #expect(error?.kind == .overDeadline, "\(error?.reason ?? "")")
        // Not at once (0 ms), and the request's deadline, not the pool's 20 s (the upper bound
        // leaves room for the kill and reap under emulation, where the arm64 VM runs this).
        #expect(waited >= .milliseconds(500) && waited < .seconds(15), "\(waited)")
        #expect(pool.timeLimit(for: hang) == .milliseconds(500))
        #expect(pool.waitingWorkerMemory(timeout: .seconds(120)) != nil, "the next waiting worker is confined")
        let quick = DecodeRequest(size: size, scale: .fill, deadline: .seconds(10))
        #expect((try? WorkerSupport.decode(photo, pool: pool, request: quick)) != nil)
    }

    /// A 6000x4500 progressive 4:4:4 JPEG holds 162 MB of coefficients: with the codec's own budget
    /// check switched off, only the worker's RLIMIT_AS (from an 8 MB budget) stops it.
    @Test func aWorkerOverItsMemoryLimitRefusesThePhotoAndTheSlideshowLives() throws {
        let folder = NSTemporaryDirectory() + "/babyalbum-worker-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = folder + "/big.jpg"
        try WorkerSupport.run([
            "/usr/bin/python3", "-c",
            "from PIL import Image; g = Image.linear_gradient('L').resize((6000, 4500)); "
                + "Image.merge('RGB', (g, g.rotate(90), g)).save('\(big)', quality=90, progressive=True, subsampling=0)",
        ])
        let request = DecodeRequest(
            size: size, scale: .fill, budget: DecodeMemoryBudget(megabytes: 8),
            testAction: Int32(BADECODE_TEST_NO_BUDGET_CHECK))
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(big, pool: pool, request: request)
        }
        // libjpeg reports the failed allocation as over its (here unlimited) budget.
        let refusals: [PhotoError.Kind] = [.outOfMemory, .decoderFailed, .tooLarge]
        #expect(error.map { refusals.contains($0.kind) } == true, "\(error?.reason ?? "")")
        // The control: the same decode with a 256 MB budget (and RLIMIT_AS) succeeds.
        let roomy = DecodeRequest(
            size: size, scale: .fill, budget: DecodeMemoryBudget(megabytes: 256),
            testAction: Int32(BADECODE_TEST_NO_BUDGET_CHECK))
        #expect((try? WorkerSupport.decode(big, pool: pool, request: roomy)) != nil)
        // With the budget check on, the same photo is refused before decoding, with the budget named.
        let checked = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(
                big, pool: pool, request: DecodeRequest(size: size, scale: .fill, budget: .init(megabytes: 8)))
        }
        #expect(checked?.kind == .tooLarge)
        let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")
        #expect((try? WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill))) != nil)
    }

    /// A 1976x1976 HEIC (3.9 megapixels and a little more; `heif-enc -q 20` of a gradient with a
    /// disc; coded at that size, no padding) under a limit of 3.9 megapixels
    /// (`--max-photo-megapixels 3.9`). Its sides are within the side limit the codec sets on every
    /// libheif (1976), so only a pixel count can refuse it. The worker's own check refuses it
    /// first, on every libheif. Decoded by libheif alone with the limits the codec sets: libheif
    /// 1.19 and later (Debian 13), whose security limits the codec finds at run time and sets from
    /// the same pixel limit, refuse it themselves (their default, or the side limit's 1976 squared,
    /// would let it through); libheif 1.15 (Debian 12) has no such limit and decodes it. Under 4
    /// megapixels both decode it and the worker shows it.
    @Test func aHEICOverThePixelLimitIsRefusedByLibheifWhereItHasSecurityLimits() throws {
        let photo = WorkerSupport.fixture("photos/heic/1976x1976.heic")
        let version = PhotoDecoder.heifVersion.split(separator: ".").compactMap { Int($0) }
        let hasSecurityLimits = version.count >= 2 && (version[0], version[1]) >= (1, 19)
        #expect(
            baphoto_heif_has_security_limits() == (hasSecurityLimits ? 1 : 0), "libheif \(PhotoDecoder.heifVersion)")
        let request = DecodeRequest(size: size, scale: .fill, limits: PhotoLimits(maxMegapixels: 3.9))
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(photo, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge)
        #expect(error?.reason == "photo is 1976x1976 (3.9 megapixels), over the limit of 3.9 megapixels")

        func libheifAlone(megapixels: Double) -> (status: Int32, message: String) {
            let fd = open(photo, O_RDONLY | O_CLOEXEC)
            defer { close(fd) }
            var limits = baphoto_limits()
            limits.max_pixels = PhotoLimits(maxMegapixels: megapixels).maxPixels
            limits.budget_bytes = DecodeMemoryBudget.default.bytes
            var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
            let status = baphoto_heif_decode_by_libheif_alone(fd, &limits, &message)
            return (status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let alone = libheifAlone(megapixels: 3.9)
        let context: Comment = "libheif \(PhotoDecoder.heifVersion): \(alone.status) \(alone.message)"
        if hasSecurityLimits {
            #expect(alone.status == Int32(BAPHOTO_ERROR_TOO_LARGE), context)
            #expect(alone.message.hasPrefix("HEIF: ") && alone.message.contains("Security limit exceeded"), context)
        } else {
            #expect(alone.status == 0, context)
        }
        print(
            "libheif \(PhotoDecoder.heifVersion) alone, a 1976x1976 HEIC under 3.9 megapixels: \(alone.status) \(alone.message)"
        )
        #expect(libheifAlone(megapixels: 4).status == 0, "libheif \(PhotoDecoder.heifVersion)")
        // Its decode is the heaviest of these suites: on the arm64 board under TCG, beside a loaded
        // host, the guest charged it more than the worker's 10 CPU seconds (the host's time away from
        // the emulated CPU counts as the worker's), so the limit takes the run's patience.
        let roomy = DecodeRequest(
            size: size, scale: .fill, limits: PhotoLimits(maxMegapixels: 4), cpuSeconds: UInt32(10 * testPatience))
        let decoded = try WorkerSupport.decode(photo, pool: pool, request: roomy)
        #expect(decoded.header.width == 1976 && decoded.header.height == 1976)
    }
}
