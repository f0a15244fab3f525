import CClockShims
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A timer on the wall clock (`timerfd` on `CLOCK_REALTIME`) that also tells when the wall
/// clock is set, without polling: armed with `TFD_TIMER_CANCEL_ON_SET`, its read fails with
/// `ECANCELED` after `date -s`, an NTP step or a resume. Owns its file descriptor.
final class WallClockTimer {
    /// What woke the timer.
    enum Outcome: Equatable {
        /// The moment it was armed for came.
        case expired
        /// The wall clock was set; the timer must be armed again.
        case clockChanged
        /// Nothing yet (a spurious wake-up).
        case nothing
    }

    private let timer: FileDescriptor

    /// The timer, for `poll`.
    var fileDescriptor: Int32 { timer.rawValue }

    /// Creates the timer, unarmed.
    init() throws(SystemCallFailure) {
        let descriptor = try valueOrErrno("timerfd_create", path: "CLOCK_REALTIME") { CClockShims_realtime_timer() }
        timer = FileDescriptor(adopting: descriptor, path: "CLOCK_REALTIME timer")
    }

    /// Arms the timer for the wall-clock moment `date` (at once when it has passed).
    ///
    /// Returns true when the wall clock was set while the timer was armed before and no read
    /// reported it (the timer fired and the clock was set before ``consume()``): then
    /// `timerfd_settime` fails with `ECANCELED` but has armed the timer all the same
    /// (timerfd_create(2), NOTES), so the caller must look at the clock again.
    @discardableResult
    func arm(until date: Date) throws(SystemCallFailure) -> Bool {
        let since1970 = max(date.timeIntervalSince1970, 1)
        let seconds = since1970.rounded(.down)
        let nanoseconds = min(((since1970 - seconds) * 1e9).rounded(), 999_999_999)
        var clockWasSet = false
        let fileDescriptor = fileDescriptor
        _ = try valueOrErrno("timerfd_settime", path: "CLOCK_REALTIME") {
            let result = Int(CClockShims_arm_until(fileDescriptor, Int64(seconds), Int64(nanoseconds)))
            if result == -1 && errno == ECANCELED {
                clockWasSet = true
                return 0
            }
            return result
        }
        return clockWasSet
    }

    /// Reads the timer after `poll` said it is readable.
    func consume() -> Outcome {
        var expirations: UInt64 = 0
        let count = read(timer.rawValue, &expirations, MemoryLayout<UInt64>.size)
        if count == MemoryLayout<UInt64>.size { return .expired }
        return count == -1 && errno == ECANCELED ? .clockChanged : .nothing
    }
}
