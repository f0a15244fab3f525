#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A reading of a wall clock: a civil date and time, and the UTC offset in force (the parts of
/// `struct tm` the program uses). `day` may run past the month's end before ``LocalTime/utcSeconds(_:)``
/// carries it over.
public struct CivilTime: Sendable, Equatable {
    /// The year (2026).
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 60.
    public var second: Int
    /// The day of the week, 0 (Sunday) to 6.
    public var weekday: Int
    /// The zone's offset from UTC in force, in seconds (east positive).
    public var utcOffsetSeconds: Int

    /// A reading; `weekday` and `utcOffsetSeconds` are not needed to convert it.
    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, weekday: Int = 0,
        utcOffsetSeconds: Int = 0
    ) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
        (self.weekday, self.utcOffsetSeconds) = (weekday, utcOffsetSeconds)
    }

    init(_ value: tm) {
        self.init(
            year: Int(value.tm_year) + 1900, month: Int(value.tm_mon) + 1, day: Int(value.tm_mday),
            hour: Int(value.tm_hour), minute: Int(value.tm_min), second: Int(value.tm_sec),
            weekday: Int(value.tm_wday), utcOffsetSeconds: Int(value.tm_gmtoff))
    }

    var tmValue: tm {
        var value = tm()
        (value.tm_year, value.tm_mon, value.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (value.tm_hour, value.tm_min, value.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return value
    }
}
