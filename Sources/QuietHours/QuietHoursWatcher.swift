import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Decides from "now", never from events: tells whether the wall clock is inside the quiet
/// hours at start, at every edge of a window, and whenever the wall clock is set. Between
/// those, its thread sleeps in `poll` on a ``WallClockTimer``: nothing wakes the process.
public final class QuietHoursWatcher: Sendable {
    private let wakeup: Wakeup
    private let thread: JoinableThread

    /// Starts watching `timetable` (a ``QuietSchedule`` on the system's calendar);
    /// `quietChanged` is called on the watcher's thread, first with the state now, then with
    /// each change.
    public init(
        timetable: some QuietTimetable, logger: Logger, quietChanged: @escaping @Sendable (_ isQuiet: Bool) -> Void
    ) throws {
        let timer = try WallClockTimer()
        let wakeup = try Wakeup()
        let loop = WatchLoop(timetable: timetable, logger: logger, quietChanged: quietChanged)
        nonisolated(unsafe) let ownedTimer = timer  // only the thread uses it from here on
        thread = try JoinableThread { loop.run(timer: ownedTimer, wakeup: wakeup) }
        self.wakeup = wakeup
    }

    /// Stops the thread and waits for it.
    public func stop() {
        wakeup.signal()
        thread.join()
    }
}

/// When the display is quiet, as a function of the wall clock.
public protocol QuietTimetable: Sendable {
    /// Whether `date` is quiet.
    func isQuiet(at date: Date) -> Bool
    /// The next moment after `date` when that changes, if any.
    func nextEdge(after date: Date) -> Date?
}

/// A ``QuietSchedule`` read on a calendar's wall clock (the system's: ``LocalTimeCalendar``).
public struct CalendarTimetable: QuietTimetable {
    /// The windows.
    public let schedule: QuietSchedule
    /// Whose time zone says what the wall clock reads.
    public let calendar: any WallCalendar

    /// Creates the timetable.
    public init(schedule: QuietSchedule, calendar: any WallCalendar) {
        self.schedule = schedule
        self.calendar = calendar
    }

    public func isQuiet(at date: Date) -> Bool { schedule.isQuiet(at: date, calendar: calendar) }
    public func nextEdge(after date: Date) -> Date? { schedule.nextEdge(after: date, calendar: calendar) }
}

/// The watcher's loop, on its own thread.
private struct WatchLoop<Timetable: QuietTimetable>: Sendable {
    let timetable: Timetable
    let logger: Logger
    let quietChanged: @Sendable (Bool) -> Void

    func run(timer: WallClockTimer, wakeup: Wakeup) {
        var told: Bool?
        while true {
            let now = Date()
            let quiet = timetable.isQuiet(at: now)
            if quiet != told {
                quietChanged(quiet)
                told = quiet
            }
            // With no edge ahead the timer still watches for the clock being set.
            let edge = timetable.nextEdge(after: now) ?? now.addingTimeInterval(7 * 86_400)
            do {
                if try timer.arm(until: edge) {
                    logger.notice("the wall clock was set: it is now \(Date()); checking the quiet hours again")
                    continue
                }
            } catch {
                logger.error(
                    "quiet hours: cannot arm the wall-clock timer (\(error)); the schedule is no longer followed")
                return
            }
            // The clock may have been set between reading it and arming: look again.
            guard timetable.isQuiet(at: Date()) == quiet else { continue }
            logger.debug("quiet hours: next edge \(edge)")
            guard waitForTimer(timer, wakeup: wakeup) else { return }
        }
    }

    /// Sleeps until the timer fires or the clock is set (true), or the watcher stops (false).
    private func waitForTimer(_ timer: WallClockTimer, wakeup: Wakeup) -> Bool {
        var fds = [
            pollfd(fd: timer.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready == -1, errno == EINTR { continue }
            if ready == -1 || fds[1].revents != 0 { return false }
            switch timer.consume() {
            case .expired: return true
            case .clockChanged:
                logger.notice("the wall clock was set: it is now \(Date()); checking the quiet hours again")
                return true
            case .nothing: continue
            }
        }
    }
}
