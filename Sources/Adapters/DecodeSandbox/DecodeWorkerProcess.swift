import AlbumDomain
import CPhotoCodecCore
import CSandbox
import FrameFinishing
import LinuxInterfaces
import PhotoCodec

/// One decode worker: its pid and its end of the socket, which it owns (closed once, when the
/// worker is stopped or done). Started waiting for a request.
struct DecodeWorkerProcess: ~Copyable, Sendable {
    let pid: Int32
    private var socket: FileDescriptor

    /// The worker `pid`, reached through `socket`.
    init(pid: Int32, socket: consuming FileDescriptor) {
        self.pid = pid
        self.socket = socket
    }

    /// Starts `command` with a fresh socket pair (the worker's end becomes its descriptor 3).
    static func start(_ command: DecodeWorkerCommand, path: String) throws(PhotoError) -> DecodeWorkerProcess {
        var pid: Int32 = -1
        guard let socket = command.spawnWithSocket({ pid = basandbox_spawn(command.executable, $0, $1) }) else {
            throw PhotoError(kind: .decoderFailed, reason: "cannot make the decode worker's socket", path: path)
        }
        guard pid > 0 else {
            let reason = "cannot start the decode worker \(command.executable): \(lastErrnoDescription())"
            throw PhotoError(kind: .decoderFailed, reason: reason, path: path)
        }
        return DecodeWorkerProcess(pid: pid, socket: socket)
    }

    /// Hands the worker its photo: waits until it is confined (at once for a worker that was
    /// started ahead of need), sets its `RLIMIT_AS` and `RLIMIT_CPU` for `request` from outside,
    /// then sends the request, the photo's `descriptor` and the frame memfd `frame` (sized here
    /// for the frame). Returns the worker, or reaps it on failure.
    consuming func handOver(
        _ descriptor: Int32, frame: FrameMemory, request: badecode_request, deadline: Duration, path: String
    ) throws(PhotoError) -> DecodeWorkerProcess {
        var ready = badecode_ready()
        var text = [CChar](repeating: 0, count: Int(BASANDBOX_ERROR_SIZE))
        let milliseconds = deadline.roundedUpMilliseconds
        let waited = basandbox_await_ready(socket.rawValue, milliseconds, &ready, &text)
        guard waited == 0 else {
            if waited == -4 {
                _ = end(killing: false)
                throw PhotoError.sandboxRefused(String(cString: text), path: path)
            }
            let status = end(killing: waited != -1)
            if waited == -1 { basandbox_describe_status(status, &text) }
            let reason =
                waited == -2
                ? "the decode worker did not start within \(deadline)" : String(cString: text)
            throw PhotoError(kind: .decoderFailed, reason: reason, path: path)
        }
        var request = request
        var limits = basandbox_worker_limits(ready.address_space_bytes, &request)
        guard basandbox_limit_process(pid, &limits) == 0 else {
            let reason = "cannot set the decode worker's limits: \(lastErrnoDescription())"
            stop()
            throw PhotoError(kind: .decoderFailed, reason: reason, path: path)
        }
        let bytes = Int(request.width) * Int(request.height) * 4
        guard (try? frame.resize(toBytes: bytes)) != nil,
            basandbox_send_request(socket.rawValue, &request, descriptor, frame.file.rawValue) == 0
        else {
            stop()
            throw PhotoError(kind: .decoderFailed, reason: "cannot reach the decode worker", path: path)
        }
        return self
    }

    /// Kills and reaps the worker.
    consuming func stop() { _ = end(killing: true) }

    /// Closes the socket and reaps the worker (killing it first when `killing`): its wait status.
    private consuming func end(killing: Bool) -> Int32 {
        socket.closeNow()
        return basandbox_reap(pid, killing ? 1 : 0)
    }

    /// Waits for the reply to `request`, reaps the worker and returns the frame (read from
    /// the memfd `frame` once the worker is gone), or the reason.
    consuming func finish(
        format: PhotoFormat, frame frameMemory: FrameMemory, request: DecodeRequest, deadline: Duration, path: String
    ) throws(PhotoError) -> WorkerDecode {
        var buffer = [UInt8](repeating: 0, count: Int(BADECODE_REPLY_MAX))
        let milliseconds = deadline.roundedUpMilliseconds
        let descriptor = socket.rawValue
        let length = buffer.withUnsafeMutableBytes {
            basandbox_receive_reply(descriptor, $0.baseAddress, $0.count, milliseconds)
        }
        guard length > 0 else {
            let status = end(killing: length == -2)
            throw Self.failure(length, status, deadline, path: path)
        }
        // The worker waits after its reply: its memory figures are still there. Then it is killed,
        // and reaped once the frame is read (it dies meanwhile, so the reap rarely waits). What it
        // could still write is pixels; the memfd's size is checked and the read bounded.
        let peakKilobytes = basandbox_peak_rss_kb(pid)
        let cpu = basandbox_cpu_ns(pid)
        socket.closeNow()
        ChildProcess.send(SignalNumber.kill, to: pid)
        let decoded = Result { () throws(PhotoError) -> (badecode_reply, Frame) in
            let reply = try Self.reply(buffer, length: length, path: path)
            try Self.check(reply, format: format, path: path)
            return (reply, try Self.frame(reply, from: frameMemory, request: request, path: path))
        }
        _ = basandbox_reap(pid, 1)
        let (reply, frame) = try decoded.get()
        return WorkerDecode(
            frame: frame, header: PhotoHeader(format: format, reply: reply),
            scaleUsed: reply.scale_used == Int32(BADECODE_SCALE_FIT) ? .fit : .fill,
            extras: Self.extras(buffer, from: Int(reply.fixed_size), length: Int(reply.extras_length)),
            workerPeakKilobytes: peakKilobytes, workerCPUNanoseconds: cpu)
    }

    /// Why the worker gave no reply: over its deadline (the wall clock's, which a busy board
    /// stretches: tried once more later); over its CPU time (SIGXCPU) or its memory (SIGABRT:
    /// libheif's C++ aborts when an allocation fails under RLIMIT_AS) the photo costs too much to
    /// decode, and is not tried again; else the status it ended with.
    private static func failure(_ length: Int, _ status: Int32, _ deadline: Duration, path: String) -> PhotoError {
        if length == -2 {
            let reason = "the decode worker took longer than \(deadline) and was stopped"
            return PhotoError(kind: .overDeadline, reason: reason, path: path)
        }
        var text = [CChar](repeating: 0, count: Int(BASANDBOX_ERROR_SIZE))
        basandbox_describe_status(status, &text)
        let signal = ChildProcess.endingSignal(ofWaitStatus: status)
        let tooCostly = signal == SignalNumber.cpuTimeExceeded || signal == SignalNumber.abort
        return PhotoError(kind: tooCostly ? .tooCostly : .decoderFailed, reason: String(cString: text), path: path)
    }

    private static func reply(_ buffer: [UInt8], length: Int, path: String) throws(PhotoError) -> badecode_reply {
        let size = MemoryLayout<badecode_reply>.size
        let reply: badecode_reply? =
            length >= size
            ? buffer.withUnsafeBytes { $0.loadUnaligned(as: badecode_reply.self) } : nil
        guard let reply, reply.magic == BADECODE_MAGIC, reply.version == BADECODE_VERSION,
            Int(reply.fixed_size) >= size, Int(reply.fixed_size) + Int(reply.extras_length) <= length
        else { throw PhotoError(kind: .decoderFailed, reason: "the decode worker's reply is malformed", path: path) }
        return reply
    }

    /// The reply's failure, if any; a photo the worker's libraries cannot decode at all (an AVIF
    /// where libheif has no AV1 decoder) is an unsupported format, as `doctor` counts it. An AVIF
    /// it refuses for a feature (matrix coefficients 10, ...) keeps the worker's reason.
    private static func check(_ reply: badecode_reply, format: PhotoFormat, path: String) throws(PhotoError) {
        let message = withUnsafeBytes(of: reply.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if reply.status == BADECODE_STATUS_REFUSED_CALL { throw PhotoError.sandboxRefused(message, path: path) }
        guard let error = PhotoError(codecStatus: reply.status, reason: message, path: path) else { return }
        if reply.status == BAPHOTO_ERROR_NO_DECODER { throw PhotoError.unsupported(format, path: path) }
        guard error.kind == .outOfMemory else { throw error }
        let reason = "\(error.reason) (over the decode worker's memory limit)"
        throw PhotoError(kind: .outOfMemory, reason: reason, path: path)
    }

    private static func frame(
        _ reply: badecode_reply, from memory: FrameMemory, request: DecodeRequest, path: String
    ) throws(PhotoError) -> Frame {
        let expected = FrameRecipe.decodedSize(
            panel: request.size, rotation: request.rotation, requested: request.scale,
            scaleUsed: reply.scale_used == Int32(BADECODE_SCALE_FIT) ? .fit : .fill)
        guard Int(reply.frame_width) == expected.width, Int(reply.frame_height) == expected.height else {
            throw PhotoError(
                kind: .decoderFailed, reason: "the decode worker sent no frame of the screen's size", path: path)
        }
        var text = [CChar](repeating: 0, count: Int(BASANDBOX_ERROR_SIZE))
        var status: Int32 = -1
        // Every pixel is copied from the memfd (or the frame is refused): no zeroing first.
        let pixels = [UInt32](unsafeUninitializedCapacity: expected.pixelCount) { buffer, count in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            status = basandbox_read_frame(memory.file.rawValue, UInt64(bytes.count), bytes.baseAddress, &text)
            count = status == 0 ? buffer.count : 0
        }
        guard status == 0 else { throw PhotoError(kind: .decoderFailed, reason: String(cString: text), path: path) }
        return Frame(size: expected, pixels: pixels)
    }

    /// The reply's records: { type u16, reserved u16, length u32, bytes padded to 4 }.
    private static func extras(_ buffer: [UInt8], from start: Int, length: Int) -> [UInt16: [UInt8]] {
        var records: [UInt16: [UInt8]] = [:]
        var at = start
        let end = start + length
        while at + 8 <= end {
            let type = UInt16(buffer[at]) | UInt16(buffer[at + 1]) << 8
            let size =
                Int(buffer[at + 4]) | Int(buffer[at + 5]) << 8 | Int(buffer[at + 6]) << 16 | Int(buffer[at + 7]) << 24
            guard at + 8 + size <= end else { break }
            records[type] = Array(buffer[(at + 8)..<(at + 8 + size)])
            at += 8 + ((size + 3) & ~3)
        }
        return records
    }
}

extension PhotoHeader {
    /// The header a worker's reply carries.
    init(format: PhotoFormat, reply: badecode_reply) {
        var header = baphoto_header()
        header.width = reply.photo_width
        header.height = reply.photo_height
        header.orientation = reply.orientation
        header.dct_scale_eighths = reply.dct_scale_eighths
        header.animated = reply.animated
        header.whole_image_bytes = reply.whole_image_bytes
        self.init(format: format, header)
    }
}
