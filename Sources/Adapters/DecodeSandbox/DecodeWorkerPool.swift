import AlbumDomain
import CSandbox
import LinuxInterfaces
import PhotoCodec
import Synchronization

/// Decodes photos in worker processes: one process per photo, confined before it reads a byte
/// of the photo (no new privileges, a seccomp allow-list, `RLIMIT_AS` from the decode budget,
/// `RLIMIT_CPU`, no descriptors but its own), writing the frame into a memfd this pool keeps. A worker
/// that crashes, is killed by its filter, runs out of memory or time is reaped and the photo is
/// refused with the cause; the caller carries on. One worker, started and confined ahead of need,
/// waits for the next photo (it is never reused after a photo, so a hostile file cannot reach the
/// next one); it is killed with the pool, and with this process (`PR_SET_PDEATHSIG`).
public final class DecodeWorkerPool: Sendable {
    /// The workers' programs, by format.
    public let programs: DecodeWorkerPrograms
    /// How long one decode may take before its worker is killed.
    public let deadline: Duration
    /// Whether the next photo's worker is started as soon as one finishes.
    public let keepsWarm: Bool
    /// Called once for each system call the sandbox refuses (its first photo), with "system call
    /// N (name)": the slideshow logs it as an error, where a line a photo would be lost.
    public let refusalAlarm: @Sendable (String) -> Void
    private let refusals = Mutex<[String: Int]>([:])
    private let warm = Mutex<WaitingWorker?>(nil)
    /// Frame memfds between decodes (one, unless decodes overlap), their pages released.
    private let frameBuffers = Mutex<[FrameMemory]>([])

    /// A pool starting each photo's program from `programs`; decodes over `deadline` are stopped.
    public init(
        programs: DecodeWorkerPrograms = .installed(), deadline: Duration = .seconds(20), keepsWarm: Bool = true,
        refusalAlarm: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.programs = programs
        self.deadline = deadline
        self.keepsWarm = keepsWarm
        self.refusalAlarm = refusalAlarm
    }

    /// A pool starting `command` for every format.
    public convenience init(
        command: DecodeWorkerCommand, deadline: Duration = .seconds(20), keepsWarm: Bool = true,
        refusalAlarm: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            programs: DecodeWorkerPrograms(command), deadline: deadline, keepsWarm: keepsWarm,
            refusalAlarm: refusalAlarm)
    }

    /// The photos whose decode the sandbox refused, counted by the system call ("system call 198
    /// (socket)"), since the pool started: for `babyalbum doctor`.
    public var refusedCalls: [String: Int] { refusals.withLock { $0 } }

    /// Stops the waiting worker; the frame memfds close as the pool ends.
    deinit {
        warm.withLock { $0.take()?.process()?.stop() }
    }

    /// Starts the worker that waits for the next photo now, if none waits (and the pool keeps one
    /// warm): the first photo then finds it confined, as every later one does. It is JPEG's, the
    /// camera's format; after a photo, the next worker is that photo's format's.
    public func startWaitingWorker() {
        guard warm.withLock({ $0 == nil }) else { return }
        refill(programs.command(for: .jpeg))
    }

    /// The pid of the worker started ahead of need and waiting for the next photo, if any (for tests
    /// and `scripts/bench`).
    public var waitingWorker: Int32? {
        warm.withLock { $0?.startedPid() }
    }

    /// The waiting worker's resident memory, KiB (`VmRSS`, and `RssAnon`: what is its own, not
    /// the program's pages shared with this process), once it is confined and waits (up to
    /// `timeout`); `nil` without one (for `scripts/bench`).
    public func waitingWorkerMemory(timeout: Duration = .seconds(5)) -> (resident: Int, anonymous: Int)? {
        warm.withLock { held in
            guard let pid = held?.startedPid(), let descriptor = held?.socketDescriptor else { return nil }
            // Its ready message has arrived (it is not read here): it is confined and idle.
            guard (try? waitUntilReadable(descriptor, timeout: timeout)) == true else { return nil }
            return (basandbox_status_kb(pid, "VmRSS:"), basandbox_status_kb(pid, "RssAnon:"))
        }
    }

    /// The CPU time the worker `pid` has used so far (its main thread), ns (for `scripts/bench`).
    public static func cpuNanoseconds(of pid: Int32) -> Int64 { Int64(basandbox_cpu_ns(pid)) }

    /// Decodes the opened `file` (named `path` in errors) in a worker.
    /// - Parameter started: called with the worker's pid once it has the request (for tests).
    public func decode(
        _ file: borrowing PhotoFile, path: String, request: DecodeRequest, started: (Int32) -> Void = { _ in }
    ) throws(PhotoError) -> WorkerDecode {
        do throws(PhotoError) {
            return try decodeInWorker(file, path: path, request: request, started: started)
        } catch {
            if case .sandboxRefused(let call) = error.kind { count(refusal: call) }
            throw error
        }
    }

    /// Counts a photo refused for `call`; the first one raises the alarm.
    private func count(refusal call: String) {
        let first = refusals.withLock { counts in
            counts[call, default: 0] += 1
            return counts[call] == 1
        }
        if first { refusalAlarm(call) }
    }

    private func decodeInWorker(
        _ file: borrowing PhotoFile, path: String, request: DecodeRequest, started: (Int32) -> Void
    ) throws(PhotoError) -> WorkerDecode {
        let format = try PhotoFormat.recognise(file, path: path)
        let command = programs.command(for: format)
        var held = warm.withLock { $0.take() }
        // A waiting worker of another format's program is stopped, and this photo's started.
        if held?.command != command {
            let unused = held?.offeredFrame
            held.take()?.process()?.stop()
            if let unused { frameBuffers.withLock { $0.append(unused) } }
        }
        // The memfd offered to the waiting worker when it is the frame's size (never resized while
        // that worker lives), else one of the pool's.
        let bytes = Int(request.size.width) * Int(request.size.height) * 4
        let offered = held?.offeredFrame
        let usesOffered = offered?.size == bytes
        let frameBuffer: FrameMemory
        do throws(PhotoError) {
            if let offered, usesOffered { frameBuffer = offered } else { frameBuffer = try takeFrameBuffer(path: path) }
        } catch {
            held.take()?.process()?.stop()
            if let offered { frameBuffers.withLock { $0.append(offered) } }
            throw error
        }
        var handedOver = false
        // Every path below reaps the worker before the memfds go back (the one of this photo's size
        // last, its pages released: the frame was copied out or refused); then, once a worker had
        // the photo, the next one is started.
        defer {
            let released = frameBuffer.releasePages()
            frameBuffers.withLock { buffers in
                if let offered, !usesOffered { buffers.append(offered) }
                if released { buffers.append(frameBuffer) }
            }
            if handedOver { refill(command) }
        }
        let worker = try handOver(
            held.take(), command: command, descriptor: file.descriptor, frame: frameBuffer, request: request.c,
            path: path)
        handedOver = true
        started(worker.pid)
        return try worker.finish(
            format: format, frame: frameBuffer, request: request, deadline: timeLimit(for: request), path: path)
    }

    /// How long the decode of `request` may take: its own deadline, at most the pool's.
    public func timeLimit(for request: DecodeRequest) -> Duration {
        guard let own = request.deadline, own < deadline else { return deadline }
        return max(own, .milliseconds(1))
    }

    private func takeFrameBuffer(path: String) throws(PhotoError) -> FrameMemory {
        if let buffer = frameBuffers.withLock({ $0.popLast() }) { return buffer }
        guard let buffer = FrameMemory() else {
            let reason = "cannot make the frame's memfd: \(lastErrnoDescription())"
            throw PhotoError(kind: .decoderFailed, reason: reason, path: path)
        }
        return buffer
    }

    /// The waiting worker `held` with the photo handed over, or a worker started for it.
    private func handOver(
        _ held: consuming WaitingWorker?, command: DecodeWorkerCommand, descriptor: Int32, frame: FrameMemory,
        request: badecode_request, path: String
    ) throws(PhotoError) -> DecodeWorkerProcess {
        if let waiting = held.take()?.process() {
            do throws(PhotoError) {
                return try waiting.handOver(descriptor, frame: frame, request: request, deadline: deadline, path: path)
            } catch {
                // The waiting worker is gone (killed while idle): start another.
            }
        }
        let worker = try DecodeWorkerProcess.start(command, path: path)
        return try worker.handOver(descriptor, frame: frame, request: request, deadline: deadline, path: path)
    }

    /// Starts the next photo's worker now, in the background (the spawning thread does the
    /// `exec`), so that its start-up and confinement overlap the slideshow's wait; it holds no
    /// photo until the next `decode`.
    private func refill(_ command: DecodeWorkerCommand) {
        guard keepsWarm, var worker = WaitingWorker(command) else { return }
        // The last photo's memfd (its pages released), offered at once: the worker maps it while it waits.
        if let buffer = frameBuffers.withLock({ $0.popLast() }), !worker.offer(buffer) {
            frameBuffers.withLock { $0.append(buffer) }
        }
        var replacement: WaitingWorker? = consume worker
        var previous = warm.withLock { held -> WaitingWorker? in
            let previous = held.take()
            held = replacement.take()
            return previous
        }
        let offered = previous?.offeredFrame
        previous.take()?.process()?.stop()
        if let offered { frameBuffers.withLock { $0.append(offered) } }
    }
}
