#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The C library's local time: the zone of `TZ` or `/etc/localtime` (`tzset`, `localtime_r`,
/// `timegm`, `strftime`), with no Foundation calendar and no ICU.
public enum LocalTime {
    /// Reads the zone again (`tzset(3)`).
    public static func readZone() { tzset() }

    /// Makes `TZ` `value` for this process and reads it (`setenv`, `tzset`).
    public static func setZone(_ value: String) {
        setenv("TZ", value, 1)
        tzset()
    }

    /// The wall clock's reading at `seconds` since the epoch (`localtime_r`).
    public static func reading(at seconds: Int) -> CivilTime {
        var moment = time_t(seconds)
        var local = tm()
        localtime_r(&moment, &local)
        return CivilTime(local)
    }

    /// The seconds since the epoch that `civil` would be were it read in UTC (`timegm`: a day
    /// past the month's end, or an hour past the day's, carries over).
    public static func utcSeconds(_ civil: CivilTime) -> Int {
        var value = civil.tmValue
        return Int(timegm(&value))
    }

    /// The wall clock's reading at `seconds` since the epoch with `strftime`'s `pattern` (C locale).
    public static func format(_ seconds: Int, _ pattern: String) -> String {
        var moment = time_t(seconds)
        var local = tm()
        localtime_r(&moment, &local)
        var text = [CChar](repeating: 0, count: 128)
        let count = strftime(&text, text.count, pattern, &local)
        return String(decoding: text[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
