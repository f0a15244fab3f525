import AlbumDomain
import QuietHours
import WiFiStatus

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clock part of a ``DoctorReport``: whether the system clock can be trusted, the time
/// zone, the quiet hours and their next edge.
public struct DoctorClockSection: Codable, Sendable, Equatable {
    /// Whether the kernel says the clock is synchronised; `nil` when it cannot be read.
    public var synchronised: Bool?
    /// The clock's state in words.
    public var state: String
    /// The system time zone, like `Europe/Berlin`.
    public var timeZone: String
    /// The local time now.
    public var now: String
    /// The quiet windows (`--quiet-hours`).
    public var quietHours: [String]
    /// How the display is kept quiet (`--quiet-mode`).
    public var quietMode: String
    /// Whether now is inside quiet hours.
    public var quietNow: Bool
    /// When the display next turns quiet or lit, local time.
    public var nextEdge: String?
    /// The backlight `dim` would use, and whether it can be set.
    public var backlight: String?
    /// The card's Wi-Fi, as `babyalbum wifi-watch` last saw it; `nil` where it does not run.
    public var wifi: String?
    /// The clock module, as `babyalbum clock-module-setup` left it at boot; `nil` without one.
    public var clockModule: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// Reads the clock and works out the schedule on the system's calendar.
    public static func probe(
        schedule: QuietSchedule, mode: QuietMode, unsetClock: UnsetClockPolicy = .keepShowing,
        backlightClass: String = Backlight.classDirectory, clock: ClockSynchronisation = .read(),
        source: WallClockSource? = WallClockSource.read(), calendar: LocalTimeCalendar = LocalTimeCalendar(),
        wifiStatusFile: String = WiFiWatcher.defaultStatusFile, clockModuleFile: String = ClockModuleReport.file
    ) -> DoctorClockSection {
        let now = Date()
        let local = { (date: Date) in LocalTimeCalendar.format(date, "%a %Y-%m-%d %H:%M %Z") }
        var section = DoctorClockSection(
            synchronised: clock.isSynchronised ? true : (clock == .unsynchronised ? false : nil),
            state: clock.description, timeZone: LocalTimeCalendar.zoneName, now: local(now),
            quietHours: schedule.windows.map(\.description), quietMode: mode.description,
            quietNow: schedule.isQuiet(at: now, calendar: calendar),
            nextEdge: schedule.nextEdge(after: now, calendar: calendar).map(local), backlight: nil, wifi: nil,
            clockModule: nil, warnings: [])
        let module = try? String(contentsOfFile: clockModuleFile, encoding: .utf8)
        if let module = module.flatMap(ClockModuleReport.init(fileText:)) {
            section.clockModule = module.line
            if module.isProblem { section.warnings.append(module.line) }
        }
        if let text = try? String(contentsOfFile: wifiStatusFile, encoding: .utf8), let wifi = WiFiState(fileText: text)
        {
            section.wifi = wifi.line
            if wifi.isProblem { section.warnings.append(wifi.line) }
        }
        if !schedule.isEmpty, source == nil {
            let meanwhile = unsetClock == .dark ? "the display stays quiet" : "the photos are shown all day"
            section.quietNow = unsetClock == .dark
            section.nextEdge = nil
            section.warnings.append(
                "clock: the system clock has not been set since power-on, so quiet hours wait for it and \(meanwhile) "
                    + "(--quiet-hours-without-clock \(unsetClock)); to set it: \(ClockSynchronisation.fixes)")
        }
        if case .dim = mode {
            if let backlight = Backlight.find(in: backlightClass) {
                section.backlight = backlight.directory + (backlight.isWritable ? "" : " (not writable by this user)")
            } else {
                section.warnings.append(
                    "quiet hours: --quiet-mode dim finds no backlight in \(backlightClass); they show black")
            }
        }
        return section
    }

    var textLines: [String] {
        var lines = ["Clock and quiet hours", "  system clock: \(state); time zone \(timeZone); now \(now)"]
        if quietHours.isEmpty {
            lines.append("  quiet hours: none (--quiet-hours)")
        } else {
            lines.append("  quiet hours: \(quietHours.joined(separator: "; ")) (--quiet-mode \(quietMode))")
            lines.append("  now: " + (quietNow ? "quiet" : "lit") + (nextEdge.map { "; next change \($0)" } ?? ""))
        }
        if let backlight { lines.append("  backlight: \(backlight)") }
        if let wifi { lines.append("  \(wifi)") }
        if let clockModule { lines.append("  \(clockModule)") }
        return lines
    }
}

extension DoctorReport {
    /// Adds the clock section and its warnings.
    mutating func add(clock section: DoctorClockSection) {
        clock = section
        warnings += section.warnings
    }
}
