import AlbumDomain
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The system's wall clock as the C library reads it (`localtime_r` on the zone of `TZ` or
/// `/etc/localtime`), as a ``WallCalendar`` for the quiet hours: no Foundation calendar and no
/// ICU in the frame's process. Daylight-saving changes follow `Calendar`'s rules for the quiet
/// hours: a time the clock reads twice is its first time, a skipped time is the moment the
/// clock leaves the skipped span.
public struct LocalTimeCalendar: WallCalendar {
    /// Reads the zone (`tzset`).
    public init() { LocalTime.readZone() }

    /// The zone's name: `TZ`, else the `zoneinfo` file `/etc/localtime` links to, else its
    /// abbreviation now (`UTC` on a system with no zone set).
    public static var zoneName: String {
        if let zone = ProcessImage.environment("TZ"), !zone.isEmpty {
            let name = zone.hasPrefix(":") ? String(zone.dropFirst()) : zone
            if let range = name.firstRange(of: "zoneinfo/") { return String(name[range.upperBound...]) }
            return name
        }
        if let path = SymbolicLink.target(of: "/etc/localtime"), let range = path.firstRange(of: "zoneinfo/") {
            return String(path[range.upperBound...])
        }
        return format(Date(), "%Z")
    }

    /// Where the system keeps its time zones.
    public static let zoneDirectory = "/usr/share/zoneinfo"

    /// Why `name` is not a time zone of `directory` ("Europe/Berlin" is one), or `nil` when it is.
    public static func problem(withZone name: String, in directory: String = zoneDirectory) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let wellFormed =
            !name.isEmpty && name.utf8.count <= 64 && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789_+-/".unicodeScalars.contains($0))
            }
        guard wellFormed, (try? PathStatus(pathBytes: Array("\(directory)/\(name)".utf8)))?.kind == .regular,
            isZoneFile("\(directory)/\(name)")
        else {
            let shown = String(
                name.unicodeScalars.prefix(64).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            return "no time zone named '\(shown)' in \(directory) (for example Europe/Berlin, America/New_York)"
        }
        return nil
    }

    /// Whether `path` is a compiled zone (it starts with `TZif`), not one of the text files beside
    /// them (`leapseconds`, `zone.tab`, `tzdata.zi`), which glibc would take as UTC without a name.
    static func isZoneFile(_ path: String) -> Bool {
        guard let file = try? FileDescriptor(opening: path), let magic = try? file.read(at: 0, upTo: 4) else {
            return false
        }
        return magic == Array("TZif".utf8)
    }

    /// Makes `name` (checked with ``problem(withZone:in:)``) this process's wall clock, for the
    /// quiet hours and the captions: `TZ`, read again.
    public static func use(zone name: String, in directory: String = zoneDirectory) {
        LocalTime.setZone(":\(directory)/\(name)")
    }

    /// `date` on the local wall clock with `strftime`'s `pattern` (C locale).
    public static func format(_ date: Date, _ pattern: String) -> String {
        LocalTime.format(seconds(date), pattern)
    }

    public func startOfDay(for date: Date) -> Date {
        let local = Self.localTime(Self.seconds(date))
        return Self.firstMoment(readingWall: Self.wall(local, hour: 0, minute: 0)).map(Self.date) ?? date
    }

    public func day(_ offset: Int, after day: Date) -> Date? {
        var local = Self.localTime(Self.seconds(day))
        local.day += offset
        return Self.firstMoment(readingWall: Self.wall(local, hour: 0, minute: 0)).map(Self.date)
    }

    public func weekday(of day: Date) -> Int { Self.localTime(Self.seconds(day)).weekday + 1 }

    public func moment(hour: Int, minute: Int, on day: Date) -> Date? {
        let local = Self.localTime(Self.seconds(day))
        return Self.firstMoment(readingWall: Self.wall(local, hour: hour, minute: minute)).map(Self.date)
    }

    /// The wall-clock reading `local`'s day at `hour`:`minute`, as seconds since the epoch were
    /// the wall clock UTC (`timegm` also carries a day past the month's end).
    private static func wall(_ local: CivilTime, hour: Int, minute: Int) -> Int {
        LocalTime.utcSeconds(
            CivilTime(year: local.year, month: local.month, day: local.day, hour: hour, minute: minute))
    }

    /// The first moment whose wall clock reads `target`, or when none does (a skipped span),
    /// the first moment after it that reads later.
    private static func firstMoment(readingWall target: Int) -> Int? {
        // Every UTC offset in force within two days of the target.
        let offsets = Set(stride(from: -2, through: 2, by: 1).map { offset(at: target + $0 * 86_400) })
        if let first = offsets.map({ target - $0 }).filter({ wallReading($0) == target }).min() { return first }
        guard var low = offsets.max().map({ target - $0 }), var high = offsets.min().map({ target - $0 }),
            low < high
        else { return nil }
        // wallReading(low) < target < wallReading(high): find where the clock jumps past it.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if wallReading(middle) > target { high = middle } else { low = middle }
        }
        return high
    }

    private static func offset(at moment: Int) -> Int { localTime(moment).utcOffsetSeconds }

    private static func wallReading(_ moment: Int) -> Int { moment + offset(at: moment) }

    private static func localTime(_ moment: Int) -> CivilTime { LocalTime.reading(at: moment) }

    private static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    private static func date(_ moment: Int) -> Date { Date(timeIntervalSince1970: Double(moment)) }
}
