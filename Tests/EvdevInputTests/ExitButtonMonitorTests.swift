import AlbumDomain
import Clocks
import Synchronization
import Testing

@testable import EvdevInput

/// The monitor on a `TestClock`: real sleeps and timer tasks, time moved by hand.
///
/// Each advance goes strictly past a deadline: the monitor's timer task may start sleeping after the
/// advance, and a `TestClock` sleep whose deadline is already past returns at once (one that equals
/// `now` would wait for the next advance).
///
/// Each test where nothing may happen ends with a positive control on the same monitor and device:
/// a real hold that does exit (a monitor that never read its input would fail there, by hanging
/// until the time limit).
@Suite(.timeLimit(.minutes(1))) struct ExitButtonMonitorTests {
    let button = "Test Button (/dev/input/event9)"

    func makeMonitor(hold: Duration) -> (ExitButtonMonitor<TestClock<Duration>>, TestClock<Duration>) {
        let clock = TestClock()
        let policy = ExitButtonPolicy(keyCodes: [116], device: nil, hold: hold)
        return (ExitButtonMonitor(policy: policy, clock: clock), clock)
    }

    func event(_ pressed: Bool, key: KeyCode = 116) -> ButtonEvent {
        ButtonEvent(device: button, key: key, isPressed: pressed)
    }

    /// Whether `run()` returned.
    final class Finished: Sendable {
        let flag = Atomic(false)
        var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
    }

    /// Runs the monitor in a task that marks `finished` when `run()` returns.
    func start(_ monitor: ExitButtonMonitor<TestClock<Duration>>, _ finished: Finished) -> Task<ExitRequest?, Never> {
        Task {
            defer { finished.flag.store(true, ordering: .sequentiallyConsistent) }
            return await monitor.run()
        }
    }

    /// A second button, for the positive control: its request tells the control's exit from a
    /// wrongful one that the events before it caused, however late that one came.
    let controlButton = "Control Button (/dev/input/event10)"

    /// The positive control: nothing ended the monitor so far, and a real hold on another device
    /// does; the request must be that device's, so a wrongful exit that came late (after the
    /// look at `finished`) fails the test instead of passing as the control's.
    func expectHoldStillExits(
        _ monitor: ExitButtonMonitor<TestClock<Duration>>, _ clock: TestClock<Duration>, _ finished: Finished,
        _ result: Task<ExitRequest?, Never>
    ) async {
        #expect(!finished.isSet, "ended before the control hold")
        monitor.send(ButtonEvent(device: controlButton, key: 116, isPressed: true))
        await clock.advance(by: .milliseconds(1001))
        #expect(await result.value == ExitRequest(device: controlButton, key: "KEY_POWER"))
    }

    @Test func shortPressDoesNothing() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let finished = Finished()
        let result = start(monitor, finished)
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(500))
        monitor.send(event(false))
        await clock.advance(by: .seconds(2))
        await expectHoldStillExits(monitor, clock, finished, result)
    }

    @Test func finishEndsWithoutARequest() async {
        let (monitor, clock) = makeMonitor(hold: .seconds(1))
        let result = Task { await monitor.run() }
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(500))
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
        let finished = Finished()
        let result = start(monitor, finished)
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(900))
        monitor.send(event(false))
        await clock.advance(by: .milliseconds(600))  // t = 1.5 s: the first hold would have ended at 1.0 s
        monitor.send(event(true))
        await clock.advance(by: .milliseconds(999))  // t = 2.499 s
        monitor.send(event(false))
        await clock.advance(by: .seconds(5))
        await expectHoldStillExits(monitor, clock, finished, result)
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
        let finished = Finished()
        let result = start(monitor, finished)
        for key: KeyCode in [1, 62, 29, 56, 60, 99, 111, 172] {  // Esc, F4, Ctrl, Alt, F2, SysRq, Del, Home
            monitor.send(event(true, key: key))
        }
        await clock.advance(by: .seconds(10))
        await expectHoldStillExits(monitor, clock, finished, result)
    }
}
