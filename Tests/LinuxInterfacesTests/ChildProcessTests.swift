import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("ChildProcess and SocketPair: a child's socket, argv, signal and end")
struct ChildProcessTests {
    @Test("A child killed with SIGKILL is told apart from one that exited, by its wait status")
    func killAndWaitStatus() throws {
        var pid: pid_t = 0
        let spawned = ChildProcess.withArgv(["/bin/sleep", "30"]) { argv in
            posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
        }
        try #require(spawned == 0)
        #expect(ChildProcess.send(SignalNumber.kill, to: pid))
        var status: Int32 = 0
        try #require(waitpid(pid, &status, 0) == pid)
        #expect(ChildProcess.endingSignal(ofWaitStatus: status) == SIGKILL)
        #expect(!ChildProcess.send(SignalNumber.kill, to: pid), "a reaped child is gone")
        var exited: pid_t = 0
        let exitedSpawn = ChildProcess.withArgv(["/bin/sh", "-c", "exit 3"]) { argv in
            posix_spawn(&exited, "/bin/sh", nil, nil, argv, environ)
        }
        try #require(exitedSpawn == 0)
        try #require(waitpid(exited, &status, 0) == exited)
        #expect(ChildProcess.endingSignal(ofWaitStatus: status) == nil)
        #expect((status >> 8) & 0xff == 3, "positive control: it exited with 3")
    }

    @Test("A sequenced-packet pair keeps each message whole and in order, and says when the other end closed")
    func socketPairMessages() throws {
        var pair = try SocketPair(sequencedPacketsNamed: "test pair")
        try pair.theirs.write(Array("first".utf8))
        try pair.theirs.write(Array("second message".utf8))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try pair.mine.read(into: &buffer) == 5)
        #expect(Array(buffer[..<5]) == Array("first".utf8))
        #expect(try pair.mine.read(into: &buffer) == 14)
        pair.theirs.closeNow()
        #expect(try pair.mine.read(into: &buffer) == 0, "end of file once the other end is closed")
    }
}
