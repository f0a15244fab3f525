import CSandbox
import LinuxInterfaces
import PhotoCodec

/// The worker started ahead of need: its socket at once, its pid once the spawning thread has
/// started it (`basandbox_spawn_later`), so that asking for it costs the caller no `exec`. It owns
/// its socket until ``process()`` hands it to the ``DecodeWorkerProcess``.
struct WaitingWorker: ~Copyable, @unchecked Sendable {  // `job` is handed over with the value, used once
    private var socket: FileDescriptor
    private var job: OpaquePointer?
    private var pid: Int32
    /// The pool's frame memfd offered to this worker ahead of its photo (it maps it while it
    /// waits; its pages were released, so it reads as a cleared frame), or `nil`; never resized while this worker lives.
    private(set) var offeredFrame: FrameMemory?
    /// Its program.
    let command: DecodeWorkerCommand

    /// Starts `command` in the background, or `nil` when even its socket cannot be made.
    init?(_ command: DecodeWorkerCommand) {
        var job: OpaquePointer?
        guard let socket = command.spawnWithSocket({ job = basandbox_spawn_later(command.executable, $0, $1) }),
            let job
        else { return nil }
        // Delegates, so that no stored property is set before the `nil` return: Swift 6.2.3's
        // SIL verifier crashes on a failable init of a noncopyable struct that returns `nil` after
        // its default values were stored.
        self.init(socket: socket, job: job, command: command)
    }

    private init(socket: consuming FileDescriptor, job: OpaquePointer, command: DecodeWorkerCommand) {
        self.socket = socket
        self.job = job
        self.command = command
        self.pid = -1
        self.offeredFrame = nil
    }

    // Ends as a whole, never taken apart field by field: Swift 6.2.3's SIL verifier crashes on
    // the destructuring of a noncopyable struct whose field has a `deinit` (the socket). The
    // socket closes itself; a worker never handed over dies with this process (`PR_SET_PDEATHSIG`).
    deinit {}

    /// Offers `frame` (at its current size, the last photo's frame) to the worker, which maps it while it
    /// waits; `false` when it was not sent (empty, or no socket).
    mutating func offer(_ frame: FrameMemory) -> Bool {
        guard basandbox_offer_frame(socket.rawValue, frame.file.rawValue) == 0 else { return false }
        offeredFrame = frame
        return true
    }

    /// The worker's pid once started (waits for the start); `nil` when it could not be started.
    mutating func startedPid() -> Int32? {
        if let job {
            pid = basandbox_spawn_wait(job)
            self.job = nil
        }
        return pid > 0 ? pid : nil
    }

    /// The socket's descriptor, for `poll`: valid while this value lives.
    var socketDescriptor: Int32 { socket.rawValue }

    /// The worker, once started (waits for the start), which then owns the socket; `nil`, the
    /// socket closed, when it could not be started.
    consuming func process() -> DecodeWorkerProcess? {
        guard let pid = startedPid() else { return nil }
        return DecodeWorkerProcess(pid: pid, socket: socket.movedOut())
    }
}

extension DecodeWorkerCommand {
    /// Makes a `SOCK_SEQPACKET` socket pair and calls `spawn` with this command's `argv` and the
    /// worker's end, which is closed once `spawn` returns (the worker has its own by then).
    /// Returns this process's end, or `nil` when the pair cannot be made.
    func spawnWithSocket(_ spawn: ([UnsafeMutablePointer<CChar>?], Int32) -> Void) -> FileDescriptor? {
        guard var pair = try? SocketPair(sequencedPacketsNamed: "the decode worker's socket") else { return nil }
        ChildProcess.withArgv([executable] + arguments) { spawn($0, pair.theirs.rawValue) }
        pair.theirs.closeNow()
        return pair.mine.movedOut()
    }
}
