import LinuxInterfaces
import Testing

@Suite("RealtimeTimer: a timerfd on the wall clock")
struct RealtimeTimerTests {
    @Test("Unarmed it reads nothing; armed 50 ms ahead it expires once, not before; a moment past expires at once")
    func expiresWhenArmed() throws {
        let timer = try RealtimeTimer()
        #expect(timer.read() == .nothing)
        let soon = RealtimeClock.nowNanoseconds + 50_000_000
        #expect(try timer.arm(untilSeconds: soon / 1_000_000_000, nanoseconds: soon % 1_000_000_000) == false)
        #expect(timer.read() == .nothing, "not yet")
        #expect(try waitUntilReadable(timer.rawValue, timeout: .seconds(10)))
        #expect(RealtimeClock.nowNanoseconds >= soon)
        #expect(timer.read() == .expired)
        #expect(timer.read() == .nothing, "once")
        try timer.arm(untilSeconds: 1, nanoseconds: 0)
        #expect(try waitUntilReadable(timer.rawValue, timeout: .seconds(10)))
        #expect(timer.read() == .expired)
    }
}
