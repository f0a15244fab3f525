import CSandbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The worker started ahead of need: its socket at once, its pid once the spawning thread has
/// started it (`basandbox_spawn_later`), so that asking for it costs the caller no `exec`.
struct WaitingWorker: @unchecked Sendable {  // `job` is handed over with the value, used once
    let socket: Int32
    private var job: OpaquePointer?
    private var pid: Int32 = -1
    /// The pool's frame memfd offered to this worker ahead of its photo (it maps and clears it
    /// while it waits), or -1; the pool's still, and never resized while this worker lives.
    private(set) var offeredFrame: Int32 = -1

    /// Starts `command` in the background, or `nil` when even its socket cannot be made.
    init?(_ command: DecodeWorkerCommand) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return nil
        }
        let argv = ([command.executable] + command.arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        job = basandbox_spawn_later(command.executable, argv, ends[1])
        close(ends[1])
        guard job != nil else {
            close(ends[0])
            return nil
        }
        socket = ends[0]
    }

    /// Offers `frameBuffer` (at its current size, the last photo's frame) to the worker, which
    /// maps and clears it while it waits; `false` when it was not sent (empty, or no socket).
    mutating func offer(_ frameBuffer: Int32) -> Bool {
        guard basandbox_offer_frame(socket, frameBuffer) == 0 else { return false }
        offeredFrame = frameBuffer
        return true
    }

    /// The worker, once started (waits for the start); `nil` when it could not be started.
    mutating func process() -> DecodeWorkerProcess? {
        if let job {
            pid = basandbox_spawn_wait(job)
            self.job = nil
        }
        guard pid > 0 else {
            close(socket)
            return nil
        }
        return DecodeWorkerProcess(pid: pid, socket: socket)
    }
}
