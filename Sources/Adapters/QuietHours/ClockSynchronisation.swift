import CClockShims
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether the system clock can be trusted: a Pi has no real-time clock (except a Pi 5 with
/// its battery), and an offline Pi boots with `fake-hwclock`'s last saved time.
public enum ClockSynchronisation: Equatable, Sendable, CustomStringConvertible {
    /// The kernel says the clock is synchronised (network time), within this many microseconds.
    case synchronised(maxErrorMicroseconds: Int)
    /// The kernel says the clock is not synchronised (`STA_UNSYNC`).
    case unsynchronised
    /// The state cannot be read (a sandbox with `ProtectClock=yes` refuses even reading it).
    case unknown(reason: String)

    /// The file systemd-timesyncd keeps while the clock is synchronised.
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"

    /// Reads the kernel's clock state (`adjtimex`, changing nothing); when that is refused,
    /// systemd-timesyncd's flag file tells a synchronised clock.
    public static func read(timesyncFlag: String = timesyncFlag) -> ClockSynchronisation {
        var unsynchronised: Int32 = 0
        var maxError = 0
        let state = CClockShims_clock_status(&unsynchronised, &maxError)
        if state == -1 {
            let reason = lastErrnoDescription()
            if FileManager.default.fileExists(atPath: timesyncFlag) { return .synchronised(maxErrorMicroseconds: 0) }
            return .unknown(reason: "adjtimex: \(reason)")
        }
        if unsynchronised != 0 || state == CClockShims_TIME_ERROR { return .unsynchronised }
        return .synchronised(maxErrorMicroseconds: maxError)
    }

    /// Whether the clock is known to be synchronised.
    public var isSynchronised: Bool {
        if case .synchronised = self { return true }
        return false
    }

    /// What a parent can do about a clock that is not synchronised.
    public static let fixes =
        "connect the frame to a network with time (systemd-timesyncd), add an RTC module, or fit a Pi 5's RTC battery"

    public var description: String {
        switch self {
        case .synchronised: "synchronised"
        case .unsynchronised: "not synchronised"
        case .unknown(let reason): "unknown (\(reason))"
        }
    }
}
