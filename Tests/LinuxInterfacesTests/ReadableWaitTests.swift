import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("waitUntilReadable: a wait with a deadline")
struct ReadableWaitTests {
    @Test("An empty pipe is not ready within the deadline; once written, or hung up, it is at once")
    func emptyWrittenAndHungUp() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let before = ContinuousClock.now
        #expect(try waitUntilReadable(ends[0], timeout: .milliseconds(30)) == false)
        #expect(ContinuousClock.now - before >= .milliseconds(30))
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try waitUntilReadable(ends[0], timeout: .seconds(10)) == true)
        #expect(read(ends[0], &byte, 1) == 1)
        close(ends[1])
        #expect(try waitUntilReadable(ends[0], timeout: .seconds(10)) == true)
    }

    @Test("A descriptor that is not open is ready (POLLNVAL), never a wait to the deadline")
    func closedDescriptor() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        close(ends[1])
        #expect(try waitUntilReadable(ends[0], timeout: .seconds(10)) == true)
    }
}
