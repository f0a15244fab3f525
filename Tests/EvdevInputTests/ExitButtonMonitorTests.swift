import AlbumDomain
import Clocks
import Testing

@testable import EvdevInput

/// The monitor on a `TestClock`: real sleeps and timer tasks, time moved by hand.
///
/// Each advance goes strictly past a deadline: the monitor's timer task may start sleeping after the
/// advance, and a `TestClock` sleep whose deadline is already past returns at once (one that equals
/// `now` would wait for the next advance).
@Suite struct ExitButtonMonitorTests {
    let button = "Test Button (/dev/input/event9)"

    func makeMonitor(hold: Duration) -> (ExitButtonMonitor<TestClock<Duration>>, TestClock<Duration>) {
        let clock = TestClock()
        let policy = ExitButtonPolicy(keyCodes: [116], device: nil, hold: hold)
        return (ExitButtonMonitor(policy: policy, clock: clock), clock)
    }

    func event(_ pressed: Bool, key: UInt16 = 116) -> ButtonEvent {
        ButtonEvent(device: button, key: key, isPressed: pressed)
    }

    @Test func shortPressDoesNothing() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let result = Task { await monitor.run() }
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(500))
        monitor.send(event(false))
        await clock.advance(by: .seconds(2))
        monitor.finish()
        #expect(await result.value == nil)
    }

    @Test func holdExits() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let result = Task { await monitor.run() }
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(1001))
        #expect(await result.value == ExitRequest(device: button, key: "KEY_POWER"))
    }

    @Test func releaseBeforeHoldCancelsAndANewHoldCounts() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let result = Task { await monitor.run() }
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(900))
        monitor.send(event(false))
        await clock.advance(by: .milliseconds(600))  // t = 1.5 s: the first hold would have ended at 1.0 s
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(999))  // t = 2.499 s
        monitor.send(event(false))
        await clock.advance(by: .seconds(5))
        monitor.finish()
        #expect(await result.value == nil)
    }

    @Test func zeroHoldExitsOnPress() async {
        let (monitor, _) = makeMonitor(hold: .zero)
        let result = Task { await monitor.run() }
        monitor.send(event(true, key: 1))  // KEY_ESC: not the button
        monitor.send(event(true))
        #expect(await result.value == ExitRequest(device: button, key: "KEY_POWER"))
    }

    @Test func otherKeysNeverExit() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let result = Task { await monitor.run() }
        for key: UInt16 in [1, 62, 29, 56, 60, 99, 111, 172] {  // Esc, F4, Ctrl, Alt, F2, SysRq, Del, Home
            monitor.send(event(true, key: key))
        }
        await clock.advance(by: .seconds(10))
        monitor.finish()
        #expect(await result.value == nil)
    }
}
