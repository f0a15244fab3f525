/// A day of the week, numbered as Foundation's Gregorian calendar numbers them (Sunday is 1).
public enum Weekday: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case sunday = 1
    case monday, tuesday, wednesday, thursday, friday, saturday

    /// The three-letter names `--quiet-hours` accepts, lowercase.
    static let names: [String: Weekday] = [
        "sun": .sunday, "mon": .monday, "tue": .tuesday, "wed": .wednesday, "thu": .thursday, "fri": .friday,
        "sat": .saturday,
    ]

    /// Monday to Sunday, the order days are written in a window.
    static let weekOrder: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

    public var description: String { Self.names.first { $0.value == self }!.key }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        weekOrder.firstIndex(of: lhs)! < weekOrder.firstIndex(of: rhs)!
    }
}

/// A time of day on the wall clock, to the minute (`HH:MM`, 00:00 to 23:59).
public struct WallClockTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Minutes since midnight, 0 to 1439.
    public let minuteOfDay: Int

    /// The hour, 0 to 23.
    public var hour: Int { minuteOfDay / 60 }
    /// The minute, 0 to 59.
    public var minute: Int { minuteOfDay % 60 }

    /// Creates a time; `nil` unless `hour` is 0–23 and `minute` 0–59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// Parses `HH:MM` (one or two digits for the hour, two for the minute).
    init?(parsing text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }), let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public static func < (lhs: WallClockTime, rhs: WallClockTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }

    public var description: String {
        String(hour / 10) + String(hour % 10) + ":" + String(minute / 10) + String(minute % 10)
    }
}

/// One quiet window of `--quiet-hours`: `[start, end)` in local wall-clock time on the given
/// days, for example `mon-fri 19:00-07:00`. A window whose end is earlier than its start
/// crosses midnight and belongs to the day it starts on.
public struct QuietWindow: Hashable, Sendable, CustomStringConvertible {
    /// The days the window starts on.
    public let days: Set<Weekday>
    /// When it starts (inclusive).
    public let start: WallClockTime
    /// When it ends (exclusive); earlier than `start` when it crosses midnight.
    public let end: WallClockTime

    /// Creates a window; throws when `start == end` (an empty or a whole-day window is a
    /// mistake, not a choice) or `days` is empty.
    public init(days: Set<Weekday> = Set(Weekday.allCases), start: WallClockTime, end: WallClockTime)
        throws(QuietWindowError)
    {
        guard start != end else { throw .startEqualsEnd }
        guard !days.isEmpty else { throw .noDays }
        self.days = days
        self.start = start
        self.end = end
    }

    /// Whether the window crosses midnight (ends on the day after it starts).
    public var crossesMidnight: Bool { end < start }

    public var description: String {
        let dayText = days.count == 7 ? "" : days.sorted().map(\.description).joined(separator: ",") + " "
        return "\(dayText)\(start)-\(end)"
    }
}

/// Why a `--quiet-hours` window is not valid.
public enum QuietWindowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The window does not have the form `[DAYS ]HH:MM-HH:MM`.
    case malformed(String)
    /// A day name is not one of mon, tue, wed, thu, fri, sat, sun.
    case unknownDay(String)
    /// The window starts when it ends.
    case startEqualsEnd
    /// The window has no days.
    case noDays

    public var description: String {
        switch self {
        case .malformed(let text):
            "'\(text)' is not a quiet window: use HH:MM-HH:MM, optionally after days, e.g. 'mon-fri 19:00-07:00'"
        case .unknownDay(let text): "'\(text)' is not a day: use mon, tue, wed, thu, fri, sat, sun"
        case .startEqualsEnd: "a quiet window must not start when it ends"
        case .noDays: "a quiet window needs at least one day"
        }
    }
}

extension QuietWindow {
    /// Parses `HH:MM-HH:MM`, optionally after days: `mon-fri 19:00-07:00`, `sat,sun 20:00-08:30`,
    /// `mon,wed-fri 18:30-06:45` (a day range may wrap: `fri-mon`). A comma may stand for the
    /// space (`mon-fri,19:00-07:00`), for settings that are split at spaces (systemd's
    /// `$BABYALBUM_OPTS`).
    public init(parsing text: String) throws(QuietWindowError) {
        var words = text.split(separator: " ")
        if words.count == 1, let comma = text.lastIndex(of: ","), text[comma...].contains(":") {
            words = [text[..<comma], text[text.index(after: comma)...]]
        }
        guard (1...2).contains(words.count) else { throw .malformed(text) }
        let times = words[words.count - 1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let start = WallClockTime(parsing: times[0]), let end = WallClockTime(parsing: times[1])
        else { throw .malformed(text) }
        let days = words.count == 2 ? try Self.parseDays(words[0]) : Set(Weekday.allCases)
        try self.init(days: days, start: start, end: end)
    }

    private static func parseDays(_ text: Substring) throws(QuietWindowError) -> Set<Weekday> {
        var days = Set<Weekday>()
        for item in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count) else { throw .malformed(String(text)) }
            var found: [Weekday] = []
            for end in ends {
                guard let day = Weekday.names[String(end)] else { throw .unknownDay(String(end)) }
                found.append(day)
            }
            var index = Weekday.weekOrder.firstIndex(of: found[0])!
            let last = Weekday.weekOrder.firstIndex(of: found[found.count - 1])!
            days.insert(Weekday.weekOrder[index])
            while index != last {
                index = (index + 1) % 7
                days.insert(Weekday.weekOrder[index])
            }
        }
        return days
    }
}
