import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The quiet hours' timer on the wall clock: LinuxInterfaces' ``RealtimeTimer`` armed for a
/// `Date`, which also tells when the wall clock is set (`date -s`, an NTP step, a resume).
final class WallClockTimer {
    /// What woke the timer.
    typealias Outcome = RealtimeTimer.Reading

    private let timer: RealtimeTimer

    /// The timer, for `poll`.
    var fileDescriptor: Int32 { timer.rawValue }

    /// Creates the timer, unarmed.
    init() throws(SystemCallFailure) {
        timer = try RealtimeTimer()
    }

    /// Arms the timer for the wall-clock moment `date` (at once when it has passed).
    ///
    /// Returns true when the wall clock was set while the timer was armed before and no read
    /// reported it (the timer fired and the clock was set before ``consume()``); the timer is
    /// armed all the same, and the caller must look at the clock again.
    @discardableResult
    func arm(until date: Date) throws(SystemCallFailure) -> Bool {
        let since1970 = max(date.timeIntervalSince1970, 1)
        let seconds = since1970.rounded(.down)
        let nanoseconds = min(((since1970 - seconds) * 1e9).rounded(), 999_999_999)
        return try timer.arm(untilSeconds: Int64(seconds), nanoseconds: Int64(nanoseconds))
    }

    /// Reads the timer after `poll` said it is readable.
    func consume() -> Outcome { timer.read() }
}
