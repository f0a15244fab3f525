import AlbumDomain
import Foundation
import QuietHours
import Synchronization
import Testing

/// The wall clock: the watcher wakes at the next edge on its own (a real `timerfd` on a real
/// thread), and the kernel's clock state can be read. (Setting the clock needs root and a
/// machine of its own: the VM tests move the guest's clock with `date -s`.)
@Suite struct ClockTests {
    /// Quiet from `start` on.
    struct QuietFrom: QuietTimetable {
        let start: Date
        func isQuiet(at date: Date) -> Bool { date >= start }
        func nextEdge(after date: Date) -> Date? { date < start ? start : nil }
    }

    @Test func theWatcherTellsTheStateAtOnceAndWakesAtTheNextEdge() throws {
        let timetable = QuietFrom(start: Date().addingTimeInterval(1.5))
        let told = Mutex<[Bool]>([])
        let watcher = try QuietHoursWatcher(timetable: timetable, logger: .init(label: "test")) { quiet in
            told.withLock { $0.append(quiet) }
        }
        defer { watcher.stop() }
        let deadline = Date().addingTimeInterval(30)
        while told.withLock({ $0.count }) < 2, Date() < deadline { usleep(20_000) }
        #expect(told.withLock { $0 } == [false, true])
        #expect(Date() >= timetable.start, "not before the edge")
    }

    @Test func aCalendarTimetableReadsTheScheduleOnItsTimeZone() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let timetable = CalendarTimetable(
            schedule: QuietSchedule(windows: [try QuietWindow(parsing: "19:00-07:00")]), calendar: calendar)
        let tokyoNight = try #require(ISO8601DateFormatter().date(from: "2026-11-24T16:00:00Z"))  // 01:00 in Tokyo
        #expect(timetable.isQuiet(at: tokyoNight))
        #expect(!timetable.isQuiet(at: tokyoNight.addingTimeInterval(7 * 3600)))  // 08:00
        #expect(timetable.nextEdge(after: tokyoNight) == tokyoNight.addingTimeInterval(6 * 3600))
    }

    @Test func theClockStateCanBeRead() {
        let state = ClockSynchronisation.read(timesyncFlag: "/nonexistent")
        // Outside a sandbox adjtimex answers (reading needs no privilege).
        #expect(state == .unsynchronised || state.isSynchronised, "\(state)")
    }
}
