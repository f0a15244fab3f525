import AlbumDomain
import Foundation
import QuietHours
import Testing

/// Quiet windows: parsing, midnight, both daylight-saving changes, repeated and overlapping
/// windows, all on an explicit time zone (Europe/Berlin: 29 March 2026 has 23 hours, 25
/// October 2026 has 25).
@Suite struct QuietScheduleTests {
    static let berlin: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    /// A moment written with its UTC offset, e.g. `2026-11-23T19:00:00+01:00`.
    static func moment(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    static func schedule(_ specs: String...) -> QuietSchedule {
        QuietSchedule(windows: specs.map { try! QuietWindow(parsing: $0) })
    }

    static func time(_ hour: Int, _ minute: Int) -> WallClockTime { WallClockTime(hour: hour, minute: minute)! }

    @Test(
        arguments: [
            ("19:00-07:00", Set(Weekday.allCases), time(19, 0), time(7, 0), "19:00-07:00"),
            (
                "mon-fri 19:00-07:00", [.monday, .tuesday, .wednesday, .thursday, .friday], time(19, 0), time(7, 0),
                "mon,tue,wed,thu,fri 19:00-07:00"
            ),
            ("sat,sun 20:00-08:30", [.saturday, .sunday], time(20, 0), time(8, 30), "sat,sun 20:00-08:30"),
            (
                "Fri-Mon 7:05-9:00", [.friday, .saturday, .sunday, .monday], time(7, 5), time(9, 0),
                "mon,fri,sat,sun 07:05-09:00"
            ),
            (
                "mon-fri,19:00-07:00", [.monday, .tuesday, .wednesday, .thursday, .friday], time(19, 0), time(7, 0),
                "mon,tue,wed,thu,fri 19:00-07:00"
            ),
            ("sat,sun,20:00-08:30", [.saturday, .sunday], time(20, 0), time(8, 30), "sat,sun 20:00-08:30"),
            ("wed 00:00-23:59", [.wednesday], time(0, 0), time(23, 59), "wed 00:00-23:59"),
        ] as [(String, Set<Weekday>, WallClockTime, WallClockTime, String)])
    func parsesWindows(spec: String, days: Set<Weekday>, start: WallClockTime, end: WallClockTime, text: String) throws
    {
        let window = try QuietWindow(parsing: spec)
        #expect(window.days == days)
        #expect(window.start == start)
        #expect(window.end == end)
        #expect(window.description == text)
    }

    @Test(arguments: [
        ("19:00-19:00", QuietWindowError.startEqualsEnd),
        ("mon 07:30-7:30", .startEqualsEnd),
        ("19:00", .malformed("19:00")),
        ("24:00-07:00", .malformed("24:00-07:00")),
        ("19:0-07:00", .malformed("19:0-07:00")),
        ("19:00-07:00-08:00", .malformed("19:00-07:00-08:00")),
        ("mon fri 19:00-07:00", .malformed("mon fri 19:00-07:00")),
        ("", .malformed("")),
        ("mon-fry 19:00-07:00", .unknownDay("fry")),
        ("monday 19:00-07:00", .unknownDay("monday")),
        ("mon-wed-fri 19:00-07:00", .malformed("mon-wed-fri")),
        (",19:00-07:00", .unknownDay("")),
        ("mon,19:00", .malformed("mon,19:00")),
    ])
    func rejectsBadWindows(spec: String, error: QuietWindowError) {
        #expect(throws: error) { try QuietWindow(parsing: spec) }
        // Positive control: the same parser accepts a good window.
        #expect((try? QuietWindow(parsing: "mon-fri 19:00-07:00")) != nil)
    }

    /// `mon-fri 19:00-07:00` in the week of Monday 23 November 2026 (CET, +01:00).
    @Test(arguments: [
        ("2026-11-23T18:59:59+01:00", false),  // Monday, before the start
        ("2026-11-23T19:00:00+01:00", true),  // the start is inside
        ("2026-11-24T06:59:59+01:00", true),  // Tuesday morning: Monday's window
        ("2026-11-24T07:00:00+01:00", false),  // the end is outside
        ("2026-11-27T23:00:00+01:00", true),  // Friday night
        ("2026-11-28T06:59:00+01:00", true),  // Saturday morning belongs to Friday's window
        ("2026-11-28T19:30:00+01:00", false),  // Saturday evening: no window starts on Saturday
        ("2026-11-30T02:00:00+01:00", false),  // Monday 02:00: Sunday has no window
    ])
    func decidesFromNow(moment: String, quiet: Bool) {
        let schedule = Self.schedule("mon-fri 19:00-07:00")
        #expect(schedule.isQuiet(at: Self.moment(moment), calendar: Self.berlin) == quiet)
    }

    @Test(arguments: [
        ("2026-11-23T12:00:00+01:00", "2026-11-23T19:00:00+01:00"),
        ("2026-11-23T19:00:00+01:00", "2026-11-24T07:00:00+01:00"),
        ("2026-11-24T02:00:00+01:00", "2026-11-24T07:00:00+01:00"),
        ("2026-11-28T10:00:00+01:00", "2026-11-30T19:00:00+01:00"),  // over the weekend
    ])
    func findsTheNextEdge(after: String, edge: String) {
        let schedule = Self.schedule("mon-fri 19:00-07:00")
        #expect(schedule.nextEdge(after: Self.moment(after), calendar: Self.berlin) == Self.moment(edge))
    }

    /// 19:00 to 07:00 lasts 11 hours over the 23-hour day and 13 over the 25-hour day; a
    /// window in the skipped hour starts when the clock leaves it; one in the repeated hour
    /// starts the first time round.
    @Test(arguments: [
        ("19:00-07:00", "2026-03-28T19:00:00+01:00", "2026-03-29T07:00:00+02:00", 11.0),
        ("19:00-07:00", "2026-10-24T19:00:00+02:00", "2026-10-25T07:00:00+01:00", 13.0),
        ("02:30-05:00", "2026-03-29T03:00:00+02:00", "2026-03-29T05:00:00+02:00", 2.0),
        ("02:30-04:00", "2026-10-25T02:30:00+02:00", "2026-10-25T04:00:00+01:00", 2.5),
    ])
    func followsDaylightSavingChanges(spec: String, start: String, end: String, hours: Double) {
        let schedule = Self.schedule(spec)
        let start = Self.moment(start)
        let end = Self.moment(end)
        #expect(end.timeIntervalSince(start) == hours * 3600)
        #expect(schedule.nextEdge(after: start.addingTimeInterval(-3600), calendar: Self.berlin) == start)
        #expect(schedule.nextEdge(after: start, calendar: Self.berlin) == end)
        #expect(!schedule.isQuiet(at: start.addingTimeInterval(-1), calendar: Self.berlin))
        #expect(schedule.isQuiet(at: start, calendar: Self.berlin))
        #expect(schedule.isQuiet(at: end.addingTimeInterval(-1), calendar: Self.berlin))
        #expect(!schedule.isQuiet(at: end, calendar: Self.berlin))
    }

    @Test func overlappingWindowsJoinAndRepeatedOnesChangeNothing() {
        let joined = Self.schedule("mon-fri 19:00-07:00", "20:00-22:00", "06:00-08:00", "mon-fri 19:00-07:00")
        let monday = Self.moment("2026-11-23T19:00:00+01:00")
        #expect(joined.nextEdge(after: monday, calendar: Self.berlin) == Self.moment("2026-11-24T08:00:00+01:00"))
        #expect(joined.isQuiet(at: Self.moment("2026-11-28T06:30:00+01:00"), calendar: Self.berlin))
        #expect(joined.isQuiet(at: Self.moment("2026-11-28T07:30:00+01:00"), calendar: Self.berlin))
        #expect(!joined.isQuiet(at: Self.moment("2026-11-28T08:00:00+01:00"), calendar: Self.berlin))
        #expect(joined.isQuiet(at: Self.moment("2026-11-28T21:00:00+01:00"), calendar: Self.berlin))
        let once = Self.schedule("mon-fri 19:00-07:00")
        let twice = Self.schedule("mon-fri 19:00-07:00", "mon-fri 19:00-07:00")
        var moment = monday
        for _ in 0..<(7 * 24) {
            #expect(once.isQuiet(at: moment, calendar: Self.berlin) == twice.isQuiet(at: moment, calendar: Self.berlin))
            #expect(
                once.nextEdge(after: moment, calendar: Self.berlin)
                    == twice.nextEdge(after: moment, calendar: Self.berlin))
            moment.addTimeInterval(3600)
        }
    }

    @Test func noWindowsNeverQuietAndAWholeWeekNeverChanges() {
        let now = Self.moment("2026-11-23T12:00:00+01:00")
        #expect(!QuietSchedule.none.isQuiet(at: now, calendar: Self.berlin))
        #expect(QuietSchedule.none.nextEdge(after: now, calendar: Self.berlin) == nil)
        let always = Self.schedule("00:00-12:00", "12:00-00:00")
        #expect(always.isQuiet(at: now, calendar: Self.berlin))
        #expect(always.nextEdge(after: now, calendar: Self.berlin) == nil)
    }
}
