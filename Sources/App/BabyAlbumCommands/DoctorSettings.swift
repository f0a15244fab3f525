import BabyAlbumDoctor
import BabyAlbumSettings
import PhotoSources

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The settings part of `babyalbum doctor`: what the frame runs with, where each setting came
/// from, and the file lines to fix.
extension SettingsWiring {
    /// The slideshow as `commandLine` and the settings file make it, and the report about it.
    static func resolveWithReport(commandLine: [String], path: String?) throws -> (show: Show, report: SettingsReport) {
        let (path, file, resolution) = try resolve(commandLine: commandLine, path: path)
        return (resolution.command, report(path: path, file: file, resolution: resolution, commandLine: commandLine))
    }

    /// The settings section of doctor's text.
    static func text(_ frame: Result<(show: Show, report: SettingsReport), any Error>) -> String {
        switch frame {
        case .success(let frame): frame.report.text
        case .failure(let error):
            "Settings: FIX: the service's options are broken, the frame would not start: "
                + Show.message(for: error).split(separator: "\n").joined(separator: " ") + "\n"
        }
    }
}

/// The USB sticks part of `babyalbum doctor`.
enum DoctorSticks {
    /// Doctor's text section.
    static func text(_ sticks: [StickReport]) -> String {
        if sticks.isEmpty { return "USB sticks: none plugged in\n" }
        return "USB sticks\n" + sticks.map { "  \($0.problem == nil ? "" : "FIX: ")\($0.text)\n" }.joined()
    }

}

/// Doctor's JSON report: the report's members, with `settings` (the settings report, or
/// `{"error": …}`) and `sticks` beside them, in one object.
struct DoctorJSON: Encodable {
    let report: DoctorReport
    let settings: Result<(show: Show, report: SettingsReport), any Error>
    let sticks: [StickReport]

    private enum Key: String, CodingKey {
        case settings, sticks, error
    }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        switch settings {
        case .success(let frame): try container.encode(frame.report, forKey: .settings)
        case .failure(let error):
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .settings)
            try nested.encode(Show.message(for: error), forKey: .error)
        }
        try container.encode(sticks, forKey: .sticks)
    }
}
