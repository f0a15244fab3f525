import LinuxInterfaces
import Logging
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe whose read end a test client watches; the ends close with the value.
private final class TestPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func send(_ byte: UInt8) {
        var value = byte
        #expect(write(writeEnd, &value, 1) == 1)
    }
}

/// A client that reads the bytes sent down its pipe; its first `failingTurns` waits ask `poll`
/// for more descriptors than `RLIMIT_NOFILE` allows, so that `poll` fails with `EINVAL`.
private final class RecordingClient: PollLoopClient, @unchecked Sendable {
    struct Seen {
        var bytes: [UInt8] = []
        var started = false
        var ended = false
        var turns = 0
        var thread: pthread_t?
    }

    let pipe: TestPipe
    let seen = Mutex(Seen())
    private var failingTurns: Int
    private let tooMany: Int

    init(pipe: TestPipe, failingTurns: Int = 0) {
        self.pipe = pipe
        self.failingTurns = failingTurns
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        tooMany = Int(min(limit.rlim_cur, 1 << 22)) + 1
    }

    func loopStarted() {
        seen.withLock {
            $0.started = true
            $0.thread = pthread_self()
        }
    }
    func loopEnded() { seen.withLock { $0.ended = true } }

    func nextWait() -> PollWait {
        seen.withLock { $0.turns += 1 }
        if failingTurns > 0 {
            failingTurns -= 1
            return PollWait(Array(repeating: (-1, .readable), count: tooMany))
        }
        return PollWait([(pipe.readEnd, .readable)])
    }

    func handle(_ ready: [PollEvents]) -> PollNext {
        guard ready.count == 1, ready[0].contains(.readable) else { return .wait }
        var byte: UInt8 = 0
        if read(pipe.readEnd, &byte, 1) == 1 { seen.withLock { $0.bytes.append(byte) } }
        return byte == 0xFF ? .end : .wait
    }
}

/// Waits up to 10 s for `condition`.
private func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite struct PollLoopTests {
    @Test func theHandlerRunsWhenADescriptorIsReadable() async throws {
        let client = RecordingClient(pipe: try TestPipe())
        let loop = try PollLoop(name: "test", logger: LogRecorder().logger, client: client)
        defer { loop.stop() }
        #expect(try await eventually { client.seen.withLock { $0.started } })
        #expect(client.seen.withLock { $0.bytes.isEmpty })  // control: nothing sent, nothing read
        client.pipe.send(7)
        client.pipe.send(8)
        #expect(try await eventually { client.seen.withLock { $0.bytes } == [7, 8] })
    }

    @Test func stopWakesTheLoopEndsItAndWaitsForIt() throws {
        let client = RecordingClient(pipe: try TestPipe())
        let loop = try PollLoop(name: "test", logger: LogRecorder().logger, client: client)
        loop.stop()
        #expect(client.seen.withLock { $0.ended })
        loop.stop()  // a second stop is fine
        // Once stopped (its thread joined), a readable descriptor is no longer handled: the byte
        // sent stays in the pipe for the next reader, and the client never saw it.
        client.pipe.send(1)
        _ = fcntl(client.pipe.readEnd, F_SETFL, fcntl(client.pipe.readEnd, F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(read(client.pipe.readEnd, &byte, 1) == 1 && byte == 1, "the byte is still in the pipe")
        #expect(client.seen.withLock { $0.bytes.isEmpty })
    }

    @Test func theClientCanEndTheLoop() throws {
        let client = RecordingClient(pipe: try TestPipe())
        let loop = try PollLoop(name: "test", logger: LogRecorder().logger, client: client)
        client.pipe.send(0xFF)
        loop.join()
        #expect(client.seen.withLock { $0.ended && $0.bytes == [0xFF] })
    }

    @Test func postedWorkRunsOnTheLoopsThread() async throws {
        let client = RecordingClient(pipe: try TestPipe())
        let loop = try PollLoop(name: "test", logger: LogRecorder().logger, client: client)
        defer { loop.stop() }
        let ranOn = Mutex<pthread_t?>(nil)
        loop.post { ranOn.withLock { $0 = pthread_self() } }
        #expect(try await eventually { ranOn.withLock { $0 } != nil })
        let loopThread = try #require(client.seen.withLock { $0.thread })
        #expect(pthread_equal(try #require(ranOn.withLock { $0 }), loopThread) != 0)
        #expect(pthread_equal(pthread_self(), loopThread) == 0)  // control: the test's own thread differs
    }

    @Test func aFailingPollIsLoggedOnceAndTheLoopGoesOn() async throws {
        let recorder = LogRecorder()
        let client = RecordingClient(pipe: try TestPipe(), failingTurns: 4)
        let loop = try PollLoop(name: "test loop", logger: recorder.logger, client: client)
        defer { loop.stop() }
        client.pipe.send(3)
        #expect(try await eventually { client.seen.withLock { $0.bytes } == [3] })
        #expect(client.seen.withLock { $0.turns } >= 5)
        #expect(recorder.warnings == ["test loop: poll failed: \(errnoDescription(EINVAL)); trying again"])
    }
}
