import AlbumDomain
import Clocks
import Testing

@testable import EvdevInput

@Suite struct ExitButtonTrackerTests {
    typealias Instant = TestClock<Duration>.Instant
    typealias Tracker = ExitButtonTracker<Instant>
    let power: KeyCode = 116

    let origin = TestClock<Duration>().now

    func at(_ milliseconds: Int) -> Instant { origin.advanced(by: .milliseconds(milliseconds)) }
    func press(_ key: KeyCode = 116, on device: String = "button") -> ButtonEvent {
        ButtonEvent(device: device, key: key, isPressed: true)
    }
    func release(_ key: KeyCode = 116, on device: String = "button") -> ButtonEvent {
        ButtonEvent(device: device, key: key, isPressed: false)
    }

    @Test func holdReachedExitsOnce() {
        var tracker = Tracker(keyCodes: [power], hold: .seconds(1))
        #expect(tracker.handle(press(), at: at(0)) == .wake(at: at(1000)))
        #expect(tracker.timerFired(at: at(999)) == .wake(at: at(1000)))
        #expect(tracker.timerFired(at: at(1000)) == .exit(ExitRequest(device: "button", key: "KEY_POWER")))
        #expect(tracker.isFinished)
        #expect(tracker.timerFired(at: at(5000)) == .none)
        #expect(tracker.handle(press(), at: at(6000)) == .none)
    }

    @Test func releaseBeforeHoldCancels() {
        var tracker = Tracker(keyCodes: [power], hold: .seconds(1))
        _ = tracker.handle(press(), at: at(0))
        #expect(tracker.handle(release(), at: at(900)) == .none)
        #expect(tracker.deadline == nil)
        #expect(tracker.timerFired(at: at(1000)) == .none)
        // A new press starts a new hold.
        #expect(tracker.handle(press(), at: at(1500)) == .wake(at: at(2500)))
        #expect(tracker.timerFired(at: at(2500)) == .exit(ExitRequest(device: "button", key: "KEY_POWER")))
    }

    @Test func zeroHoldExitsOnPress() {
        var tracker = Tracker(keyCodes: [power], hold: .zero)
        #expect(tracker.handle(press(), at: at(42)) == .exit(ExitRequest(device: "button", key: "KEY_POWER")))
    }

    @Test func otherKeysAreIgnored() {
        var tracker = Tracker(keyCodes: [power], hold: .zero)
        #expect(tracker.handle(press(1), at: at(0)) == .none)  // KEY_ESC
        #expect(tracker.handle(press(172), at: at(0)) == .none)  // KEY_HOMEPAGE
        #expect(!tracker.isFinished)
    }

    @Test func anyOfSeveralKeysWorks() {
        var tracker = Tracker(keyCodes: [power, 172], hold: .milliseconds(500))
        _ = tracker.handle(press(172, on: "tablet"), at: at(0))
        #expect(tracker.timerFired(at: at(500)) == .exit(ExitRequest(device: "tablet", key: "KEY_HOMEPAGE")))
    }

    @Test func releaseOnAnotherDeviceDoesNotCancel() {
        var tracker = Tracker(keyCodes: [power], hold: .seconds(1))
        _ = tracker.handle(press(on: "button"), at: at(0))
        _ = tracker.handle(release(on: "keyboard"), at: at(500))
        #expect(tracker.timerFired(at: at(1000)) == .exit(ExitRequest(device: "button", key: "KEY_POWER")))
    }

    @Test func repeatedPressKeepsTheFirstInstant() {
        var tracker = Tracker(keyCodes: [power], hold: .seconds(1))
        _ = tracker.handle(press(), at: at(0))
        #expect(tracker.handle(press(), at: at(600)) == .wake(at: at(1000)))
    }

}
