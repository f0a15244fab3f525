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
