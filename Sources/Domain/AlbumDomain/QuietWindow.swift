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
