import AlbumDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The quiet hours (`--quiet-hours`, repeatable): whether a moment lies inside a window, and
/// when that next changes. Pure functions of the windows, the moment and a calendar (whose
/// time zone says what the wall clock reads): a ``WallCalendar``. The edge passes the system's
/// (libc's local time), tests pass Foundation calendars of their own.
///
/// A window's edges are the first moment the wall clock reads its start (or end) time on the
/// day concerned: across a daylight-saving change a `19:00-07:00` window lasts 11 or 13 hours;
/// an edge in the hour that is skipped comes when the clock leaves it (03:00), and one in the
/// hour that is repeated comes the first time round.
public struct QuietSchedule: Hashable, Sendable, CustomStringConvertible {
    /// The windows; the schedule is quiet when any of them is.
    public let windows: [QuietWindow]

    /// Creates a schedule of `windows` (none: never quiet).
    public init(windows: [QuietWindow]) {
        self.windows = windows
    }

    /// Never quiet.
    public static let none = QuietSchedule(windows: [])

    /// Whether there are no windows.
    public var isEmpty: Bool { windows.isEmpty }

    /// Whether `date` lies inside a window, on the wall clock of `calendar`.
    public func isQuiet(at date: Date, calendar: some WallCalendar) -> Bool {
        periods(around: date, calendar: calendar).contains { $0.contains(date) }
    }

    /// The next moment after `date` when the schedule turns quiet or turns lit again; `nil`
    /// when it never changes (no windows, or windows that cover the whole week).
    public func nextEdge(after date: Date, calendar: some WallCalendar) -> Date? {
        let horizon = date.addingTimeInterval(8 * 86_400)
        return Self.merged(periods(around: date, calendar: calendar))
            .flatMap { [$0.lowerBound, $0.upperBound] }
            .first { $0 > date && $0 < horizon }
    }

    /// The quiet periods, as moments, of every window starting from the day before `date`'s
    /// day to nine days after it.
    func periods(around date: Date, calendar: some WallCalendar) -> [Range<Date>] {
        let today = calendar.startOfDay(for: date)
        var periods: [Range<Date>] = []
        for offset in -1...9 {
            guard let day = calendar.day(offset, after: today), let nextDay = calendar.day(offset + 1, after: today),
                let weekday = Weekday(rawValue: calendar.weekday(of: day))
            else { continue }
            for window in windows where window.days.contains(weekday) {
                guard let start = Self.moment(window.start, on: day, calendar: calendar),
                    let end = Self.moment(window.end, on: window.crossesMidnight ? nextDay : day, calendar: calendar),
                    start < end
                else { continue }
                periods.append(start..<end)
            }
        }
        return periods
    }

    /// The first moment on `day` (the start of a day) when the wall clock reads `time` or,
    /// when that time is skipped, the moment the clock leaves the skipped hour.
    static func moment(_ time: WallClockTime, on day: Date, calendar: some WallCalendar) -> Date? {
        if time.minuteOfDay == 0 { return day }
        return calendar.moment(hour: time.hour, minute: time.minute, on: day)
    }

    /// Sorted, with overlapping and touching periods joined.
    static func merged(_ periods: [Range<Date>]) -> [Range<Date>] {
        var merged: [Range<Date>] = []
        for period in periods.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, period.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, period.upperBound)
            } else {
                merged.append(period)
            }
        }
        return merged
    }

    public var description: String {
        windows.isEmpty ? "none" : windows.map(\.description).joined(separator: "; ")
    }
}
