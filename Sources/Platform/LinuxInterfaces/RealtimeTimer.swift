import CLinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A timer on the wall clock (`timerfd` on `CLOCK_REALTIME`, non-blocking, close-on-exec) that
/// also tells when the wall clock is set, without polling: armed with `TFD_TIMER_ABSTIME |
/// TFD_TIMER_CANCEL_ON_SET`, its read fails with `ECANCELED` after `date -s`, an NTP step or a
/// resume. Owns its descriptor; a ``PollLoop`` waits on ``rawValue``.
public final class RealtimeTimer {
    /// What a read of the timer found.
    public enum Reading: Equatable, Sendable {
        /// The moment it was armed for came.
        case expired
        /// The wall clock was set; the timer must be armed again.
        case clockChanged
        /// Nothing yet (a spurious wake-up).
        case nothing
    }

    private let timer: FileDescriptor

    /// The timer, for `poll`. Valid while the timer lives.
    public var rawValue: Int32 { timer.rawValue }

    /// Creates the timer, unarmed.
    public init() throws(SystemCallFailure) {
        let descriptor = try valueOrErrno("timerfd_create", path: "CLOCK_REALTIME") {
            CLinuxInterfaces_realtime_timer()
        }
        timer = FileDescriptor(adopting: descriptor, path: "CLOCK_REALTIME timer")
    }

    /// Arms the timer for `seconds`.`nanoseconds` since the epoch (at once when that has passed).
    ///
    /// Returns true when the wall clock was set while the timer was armed before and no read
    /// reported it: then `timerfd_settime` fails with `ECANCELED` but has armed the timer all the
    /// same (timerfd_create(2), NOTES), so the caller must look at the clock again.
    @discardableResult
    public func arm(untilSeconds seconds: Int64, nanoseconds: Int64) throws(SystemCallFailure) -> Bool {
        var clockWasSet = false
        let descriptor = rawValue
        _ = try valueOrErrno("timerfd_settime", path: "CLOCK_REALTIME") { () -> Int32 in
            let result: Int32 = CLinuxInterfaces_arm_realtime_timer(descriptor, seconds, nanoseconds)
            if result == -1 && errno == ECANCELED {
                clockWasSet = true
                return 0
            }
            return result
        }
        return clockWasSet
    }

    /// Reads the timer (after `poll` said it is readable; else ``Reading/nothing``).
    public func read() -> Reading {
        var expirations: UInt64 = 0
        let count = Glibc.read(rawValue, &expirations, MemoryLayout<UInt64>.size)
        if count == MemoryLayout<UInt64>.size { return .expired }
        return count == -1 && errno == ECANCELED ? .clockChanged : .nothing
    }
}
