import AlbumDomain
import ArgumentParser
import QuietHours

extension QuietMode: ExpressibleByArgument {
    public var defaultValueDescription: String { description }
}

/// The schedule of `--quiet-hours` specs; a bad window is a usage error that says why.
func quietSchedule(_ specs: [String]) throws(ValidationError) -> QuietSchedule {
    var windows: [QuietWindow] = []
    for spec in specs {
        do {
            windows.append(try QuietWindow(parsing: spec))
        } catch {
            throw ValidationError("--quiet-hours: \(error)")
        }
    }
    return QuietSchedule(windows: windows)
}

extension UnsetClockPolicy: ExpressibleByArgument {}

extension ClockNoticeSetting: ExpressibleByArgument {}

extension ClockModuleChip: ExpressibleByArgument {
    /// The chip's name in any case: `DS3231`, as printed on the module, is `ds3231`.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
