import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HeldSignalsTests {
    @Test func aHeldSignalIsNotedOnceAndDoesNotEndTheProcess() {
        // SIGUSR2's default action ends the process: the test would not return without the hold.
        HeldSignals.hold([SIGUSR2])
        #expect(!HeldSignals.takeArrived(SIGUSR2), "nothing arrived yet")
        // To the process, as systemd or a tty hang-up sends it (any thread not blocking it takes it).
        kill(getpid(), SIGUSR2)
        var arrived = false
        for _ in 0..<100 where !arrived {
            arrived = HeldSignals.takeArrived(SIGUSR2)
            if !arrived { usleep(10_000) }
        }
        #expect(arrived, "the arrival was noted")
        #expect(!HeldSignals.takeArrived(SIGUSR2), "each arrival is reported once")
        signal(SIGUSR2, SIG_IGN)
    }

    @Test func signalsNeverHeldAreNeverReported() {
        #expect(!HeldSignals.takeArrived(SIGWINCH))
        #expect(!HeldSignals.takeArrived(0))
        #expect(!HeldSignals.takeArrived(999))
    }
}
