#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the quiet hours need of a calendar: days, and the moments the wall clock of one time
/// zone reads a time on them. Foundation's `Calendar` is one (tests use it with named zones);
/// the frame uses the C library's local time (``LocalTimeCalendar``), which needs no Foundation
/// calendar and no ICU in the process. It lives here, not in the domain, which imports nothing
/// but the standard library.
public protocol WallCalendar: Sendable {
    /// The first moment of `date`'s day.
    func startOfDay(for date: Date) -> Date
    /// The first moment of the day `offset` days after `day`'s (before it, when negative).
    func day(_ offset: Int, after day: Date) -> Date?
    /// `day`'s weekday, 1 (Sunday) to 7 (Saturday).
    func weekday(of day: Date) -> Int
    /// The first moment on `day` (the first moment of a day) when the wall clock reads
    /// `hour`:`minute`, or, when that time is skipped, the moment the clock leaves the skipped
    /// span; `nil` when there is none.
    func moment(hour: Int, minute: Int, on day: Date) -> Date?
}

extension Calendar: WallCalendar {
    public func day(_ offset: Int, after day: Date) -> Date? {
        date(byAdding: .day, value: offset, to: day).map { startOfDay(for: $0) }
    }

    public func weekday(of day: Date) -> Int { component(.weekday, from: day) }

    public func moment(hour: Int, minute: Int, on day: Date) -> Date? {
        nextDate(
            after: day, matching: DateComponents(hour: hour, minute: minute, second: 0),
            matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
    }
}
