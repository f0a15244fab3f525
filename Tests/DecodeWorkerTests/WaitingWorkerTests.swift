import AlbumDomain
import DecodeSandbox
import Foundation
import LinuxInterfaces
import PhotoCodec
import PhotoDecoding
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The worker started ahead of need: confined before it has a photo, small while it waits, used
/// for one photo only, alive as long as the slideshow needs it and not a moment longer.
@Suite struct WaitingWorkerTests {
    let size = FrameSize(width: 64, height: 48)
    let photo = WorkerSupport.fixture("photos/jpeg/s420.jpg")

    @Test func aWaitingWorkerIsConfinedAndSmallBeforeItHasAPhoto() throws {
        let pool = DecodeWorkerPool(command: WorkerSupport.command)
        _ = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        let waiting = try #require(pool.waitingWorker)
        #expect(WorkerSupport.waitUntilConfined(waiting))
        #expect(Set(WorkerSupport.threadFields("Seccomp", pid: waiting)) == ["2"])
        #expect(Set(WorkerSupport.threadFields("NoNewPrivs", pid: waiting)) == ["1"])
        // One thread: the program becomes the worker before the concurrency runtime starts any
        // (a runtime thread's `setpriority` was refused by the filter, killing workers at random).
        #expect(WorkerSupport.threadFields("Seccomp", pid: waiting).count == 1)
        // The last photo's frame memfd was offered ahead: mapped while it waits, its descriptor
        // closed again. Its own socket, nothing inherited.
        #expect(Self.waitUntilFrameMapped(waiting), "no frame memfd in /proc/\(waiting)/maps")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(waiting)/fd")
        #expect(descriptors.count == 1, "\(descriptors)")
        let anonymous = Int(WorkerSupport.statusField("RssAnon", pid: waiting)?.split(separator: " ").first ?? "")
        #expect(anonymous.map { $0 < 4096 } == true, "RssAnon \(anonymous ?? -1) kB")
        // No memory or CPU limit yet: the slideshow sets them with the photo's budget.
        #expect(WorkerSupport.limit("Max address space", pid: waiting) == "unlimited")
        var handedTo: Int32 = 0
        var limits: (String?, String?, String?) = (nil, nil, nil)
        let next = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill)) {
            handedTo = $0
            limits = (
                WorkerSupport.limit("Max address space", pid: $0), WorkerSupport.limit("Max cpu time", pid: $0),
                WorkerSupport.limit("Max file size", pid: $0)
            )
        }
        #expect(handedTo == waiting)
        #expect(limits.0 != nil && limits.0 != "unlimited")
        #expect(limits.1 == "10")
        #expect(limits.2 == "\(size.pixelCount * 4)")  // the frame's memfd cannot grow past the frame
        #expect(next.frame.pixels == (try PhotoDecoder.decode(photo, to: size, scale: .fill)).pixels)
        // Used once: the next photo's worker is another process.
        #expect(pool.waitingWorker != nil && pool.waitingWorker != waiting)
    }

    /// Between photos the frame memfd keeps its size but holds no memory (its pages released once
    /// the frame was copied out), and the next photo still finds it cleared: a photo fitted with
    /// bars after one that filled the frame has black bars, not the last photo's pixels.
    @Test func betweenPhotosTheFrameMemoryHoldsNoPages() throws {
        let pool = DecodeWorkerPool(command: WorkerSupport.command)
        let screen = FrameSize(width: 640, height: 480)
        let filled = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: screen, scale: .fill))
        #expect(filled.frame.pixels == (try PhotoDecoder.decode(photo, to: screen, scale: .fill)).pixels)
        let waiting = try #require(pool.waitingWorker)
        #expect(Self.waitUntilFrameMapped(waiting))
        let resident = Self.frameMappingResidentKB(waiting)
        #expect(resident == 0, "the waiting worker's frame mapping holds \(resident ?? -1) kB")

        // 45x37 on 4:3: the fitted photo has bars at the sides, where the filled one had pixels.
        let fitted = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: screen, scale: .fit))
        let expected = try PhotoDecoder.decode(photo, to: screen, scale: .fit)
        #expect(expected.pixels.first == 0 && filled.frame.pixels.first != 0)
        #expect(fitted.frame.pixels == expected.pixels)
    }

    /// The `Rss` of the worker `pid`'s mapping of the frame memfd, kB (`/proc/PID/smaps`), or nil.
    static func frameMappingResidentKB(_ pid: Int32) -> Int? {
        guard let smaps = textFile("/proc/\(pid)/smaps") else { return nil }
        var inFrame = false
        for line in smaps.split(separator: "\n") {
            // A mapping's header: "start-end perms offset dev inode [path]"; its fields follow.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inFrame = line.contains("/memfd:babyalbum-frame")
            } else if inFrame, fields.first == "Rss:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }

    /// Whether the worker `pid` maps the slideshow's frame memfd within 30 s (a bound for a loaded
    /// machine, not a timing: it maps it within milliseconds on a quiet one).
    static func waitUntilFrameMapped(_ pid: Int32) -> Bool {
        // Read to the end: a worker's maps is longer than the first page a single read returns.
        WorkerSupport.waitUntil { textFile("/proc/\(pid)/maps")?.contains("/memfd:babyalbum-frame") == true }
    }

    /// PR_SET_PDEATHSIG fires when the thread that started a worker ends: workers are started from
    /// one long-lived thread, so a waiting worker survives the (dispatch) thread that asked for it.
    @Test func aWaitingWorkerOutlivesTheThreadThatAskedForIt() throws {
        let pool = DecodeWorkerPool(command: WorkerSupport.command)
        let done = DispatchSemaphore(value: 0)
        let started = Mutex<Int32?>(nil)
        // The thread ends only once its waiting worker is confined (and has asked for PDEATHSIG).
        let thread = Thread { [photo, size] in
            _ = try? WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill))
            if let waiting = pool.waitingWorker, WorkerSupport.waitUntilConfined(waiting) {
                started.withLock { $0 = waiting }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        let waiting = try #require(started.withLock { $0 })
        let deadline = ContinuousClock.now + .seconds(10)
        while !thread.isFinished, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(thread.isFinished, "the thread that asked for the waiting worker has ended")
        // Alive: waiting (S), or still running its set-up under emulation (R); PDEATHSIG would have
        // left a zombie (Z) for the pool to reap.
        let state = WorkerSupport.statusField("State", pid: waiting)
        #expect(state.map { $0.hasPrefix("S") || $0.hasPrefix("R") } == true, "State: \(state ?? "no process")")
        var handedTo: Int32 = 0
        _ = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill)) {
            handedTo = $0
        }
        #expect(handedTo == waiting)
    }

    @Test func theWaitingWorkerEndsWithItsPool() throws {
        var pool: DecodeWorkerPool? = DecodeWorkerPool(command: WorkerSupport.command)
        _ = try WorkerSupport.decode(photo, pool: pool!, request: DecodeRequest(size: size, scale: .fill))
        let waiting = try #require(pool?.waitingWorker)
        pool = nil
        // Killed and reaped: no process, not even a zombie.
        #expect(kill(waiting, 0) == -1 && errno == ESRCH)
    }
}
