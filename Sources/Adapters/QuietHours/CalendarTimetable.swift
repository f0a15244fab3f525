import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
