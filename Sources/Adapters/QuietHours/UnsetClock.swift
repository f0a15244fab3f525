import LinuxInterfaces
import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `--quiet-hours-without-clock`: what quiet hours do while the wall clock has not been set since
/// power-on (a Pi has no real-time clock: without network time or a clock module its clock
/// starts at the last time it knew, and quiet hours would switch at random real times).
public enum UnsetClockPolicy: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The photos are shown all day until the clock is set: the frame never goes dark at noon,
    /// and never pretends to know when night is (the default).
    case keepShowing = "keep-showing"
    /// The display stays quiet until the clock is set: a frame in a child's room that must never
    /// light up at night, even without Wi-Fi or a clock module.
    case dark

    public var description: String { rawValue }
}

/// Where the wall clock's time comes from, once it can be trusted.
public enum WallClockSource: Equatable, Sendable, CustomStringConvertible {
    /// Network time: the kernel says the clock is synchronised.
    case network
    /// A real-time clock set the system clock at boot: the kernel's (`/sys/class/rtc/rtcN/hctosys`),
    /// or the clock module's, from userspace (``ClockModuleReport``).
    case realTimeClock(String)

    public var description: String {
        switch self {
        case .network: "network time"
        case .realTimeClock(let name): "the real-time clock \(name)"
        }
    }

    /// The RTC folder of the kernel.
    public static let rtcClass = "/sys/class/rtc"

    /// The source of a trustworthy wall clock now, or `nil` when it has not been set since power-on.
    public static func read(rtcClass: String = rtcClass, clockModuleFile: String = ClockModuleReport.file)
        -> WallClockSource?
    {
        if ClockSynchronisation.read().isSynchronised { return .network }
        let module = try? String(contentsOfFile: clockModuleFile, encoding: .utf8)
        if let rtc = module.flatMap(ClockModuleReport.init(fileText:))?.rtc { return .realTimeClock(rtc) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rtcClass)) ?? []
        for name in names.sorted() where name.hasPrefix("rtc") {
            let flag = try? String(contentsOfFile: "\(rtcClass)/\(name)/hctosys", encoding: .utf8)
            if flag?.hasPrefix("1") == true { return .realTimeClock(name) }
        }
        return nil
    }
}

/// Quiet hours that say nothing they do not know: while the wall clock has not been set
/// (`clockSource` is `nil`), the display is lit (``UnsetClockPolicy/keepShowing``) or quiet
/// (``UnsetClockPolicy/dark``) whatever the hour; from then on `schedule` decides. Until it is
/// set the timetable ``awaitsClock``: a ``QuietHoursWatcher`` looks at the clock again when
/// timesyncd's flag or the clock module's report arrives, and every ``recheck`` besides (the
/// kernel's own flag, with no timesyncd, sends no event).
public final class ClockAwareTimetable<Schedule: QuietTimetable>: QuietTimetable {
    /// The windows on the wall clock.
    public let schedule: Schedule
    /// What happens before the clock is set.
    public let policy: UnsetClockPolicy
    /// How often an unset clock is looked at again without an event (network time may set it at
    /// any moment).
    public let recheck: Double
    private let clockSource: @Sendable () -> WallClockSource?
    private let logger: Logger
    private let known = Mutex<WallClockSource?>(nil)

    /// Creates the timetable; `clockSource` says where a trustworthy clock comes from, if any.
    public init(
        schedule: Schedule, policy: UnsetClockPolicy, logger: Logger, recheck: Double = 30,
        clockSource: @escaping @Sendable () -> WallClockSource? = { WallClockSource.read() }
    ) {
        self.schedule = schedule
        self.policy = policy
        self.recheck = recheck
        self.clockSource = clockSource
        self.logger = logger
    }

    /// Whether the wall clock is known now (logs the moment it becomes known, once).
    public var clockIsKnown: Bool {
        if known.withLock({ $0 != nil }) { return true }
        guard let source = clockSource() else { return false }
        known.withLock { $0 = source }
        logger.notice("the system clock is now set by \(source): quiet hours follow it")
        return true
    }

    /// Whether the clock has yet to be set.
    public var awaitsClock: Bool { !clockIsKnown }

    public func isQuiet(at date: Date) -> Bool {
        guard clockIsKnown else { return policy == .dark }
        return schedule.isQuiet(at: date)
    }

    public func nextEdge(after date: Date) -> Date? {
        guard clockIsKnown else { return date.addingTimeInterval(recheck) }
        return schedule.nextEdge(after: date)
    }
}
