import AlbumDomain
import Foundation
import QuietHours
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The frame's calendar (the C library's local time) against Foundation's `Calendar` in the
/// same zone, over whole years of days: start of day, weekday, and the quiet hours' edges,
/// daylight-saving days included (a skipped hour, a repeated hour, a half-hour change, a zone
/// whose change falls at midnight).
///
/// `LocalTimeCalendar` reads the process's `TZ`, so each test sets it in a process of its own
/// (an exit test): `setenv` beside the other tests' threads is undefined behaviour, since glibc
/// reallocates the environment under a `getenv` or `posix_spawn` that is reading it.
@Suite struct LocalTimeCalendarTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC"]

    @Test func itAgreesWithFoundationsCalendarInEveryZone() async {
        await #expect(processExitsWith: .success) {
            for zone in LocalTimeCalendarTests.zones {
                try LocalTimeCalendarTests.compareWithFoundation(zone: zone)
            }
        }
    }

    /// Two years of days in `zone`, on the frame's calendar and on Foundation's.
    static func compareWithFoundation(zone: String) throws {
        var foundation = Calendar(identifier: .gregorian)
        foundation.timeZone = try #require(TimeZone(identifier: zone))
        let local = use(zone: zone)
        let schedule = QuietSchedule(windows: [
            try QuietWindow(parsing: "19:00-07:00"), try QuietWindow(parsing: "02:30-03:15"),
            try QuietWindow(parsing: "00:00-00:30"),
        ])
        var moment = try #require(ISO8601DateFormatter().date(from: "2026-01-01T11:17:00Z"))
        for _ in 0..<(2 * 365) {
            #expect(local.startOfDay(for: moment) == foundation.startOfDay(for: moment), "\(zone) \(moment)")
            let day = foundation.startOfDay(for: moment)
            #expect(local.weekday(of: day) == foundation.weekday(of: day))
            #expect(local.day(1, after: day) == foundation.day(1, after: day), "\(zone) \(day)")
            for (hour, minute) in [(2, 30), (3, 15), (7, 0), (19, 0), (0, 30)] {
                #expect(
                    local.moment(hour: hour, minute: minute, on: day)
                        == foundation.moment(hour: hour, minute: minute, on: day),
                    "\(zone) \(day) \(hour):\(minute)")
            }
            #expect(
                schedule.nextEdge(after: moment, calendar: local)
                    == schedule.nextEdge(after: moment, calendar: foundation), "\(zone) \(moment)")
            moment = moment.addingTimeInterval(12 * 3600 + 7 * 60)
        }
    }

    /// Chile moves its clocks at midnight: on 2026-09-06 the clock goes from 23:59:59 on the 5th
    /// to 01:00 on the 6th. A window edge at 00:30 that day comes when the clock leaves the
    /// skipped hour, 01:00 (the schedule's rule). Foundation's `nextDate` gives 00:30 on the 7th
    /// instead, so this day is checked against the rule, not against Foundation.
    @Test func aTimeSkippedAtMidnightComesWhenTheClockLeavesTheGap() async {
        await #expect(processExitsWith: .success) {
            let local = LocalTimeCalendarTests.use(zone: "America/Santiago")
            let noon = try #require(ISO8601DateFormatter().date(from: "2026-09-06T15:00:00Z"))  // 12:00 -03
            let start = try #require(ISO8601DateFormatter().date(from: "2026-09-06T04:00:00Z"))  // 01:00 -03
            #expect(local.startOfDay(for: noon) == start)
            #expect(local.moment(hour: 0, minute: 30, on: start) == start)
            #expect(local.moment(hour: 7, minute: 0, on: start) == start.addingTimeInterval(6 * 3600))
            #expect(local.weekday(of: start) == 1)  // a Sunday
        }
    }

    @Test func itNamesTheZoneOfTZ() async {
        await #expect(processExitsWith: .success) {
            _ = LocalTimeCalendarTests.use(zone: "Europe/Berlin")
            let name = LocalTimeCalendar.zoneName
            #expect(name == "Europe/Berlin", "the zone's name: \(name)")
            let winter = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24 16:00 UTC
            let shown = LocalTimeCalendar.format(winter, "%H:%M %Z")
            #expect(shown == "17:00 CET", "2025-11-24 16:00 UTC in Berlin: \(shown)")
        }
    }

    /// Sets `TZ` to `zone` in this process, which must be an exit test's own, and reads it.
    static func use(zone: String) -> LocalTimeCalendar {
        setenv("TZ", zone, 1)
        return LocalTimeCalendar()
    }
}

/// `--time-zone`: a zone of the system's zoneinfo, or a clear refusal.
@Suite struct TimeZoneSettingTests {
    @Test(arguments: ["Europe/Berlin", "America/New_York", "UTC"])
    func aZoneOfTheSystemIsAccepted(name: String) {
        #expect(LocalTimeCalendar.problem(withZone: name) == nil)
    }

    @Test(arguments: [
        "Mars/Olympus", "../../etc/passwd", "/etc/localtime", "Europe//Berlin", "", "Europe/Berlin\u{1B}[2J",
    ])
    func anythingElseIsRefusedWithExamples(name: String) {
        let problem = LocalTimeCalendar.problem(withZone: name)
        #expect(problem?.contains("for example Europe/Berlin") == true, "\(name)")
        #expect(problem?.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } == true, "no raw controls")
    }
}
