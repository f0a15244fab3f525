import BabyAlbumSettings
import Foundation
import PhotoSources

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

    /// Doctor's JSON report with a `settings` member (the settings report, or the error).
    static func addingSettings(
        _ frame: Result<(show: Show, report: SettingsReport), any Error>, to json: Data
    ) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else { return json }
        switch frame {
        case .success(let frame):
            object["settings"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(frame.report))
        case .failure(let error):
            object["settings"] = ["error": Show.message(for: error)]
        }
        return try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}

/// The USB sticks part of `babyalbum doctor`.
enum DoctorSticks {
    /// Doctor's text section.
    static func text(_ sticks: [StickReport]) -> String {
        if sticks.isEmpty { return "USB sticks: none plugged in\n" }
        return "USB sticks\n" + sticks.map { "  \($0.problem == nil ? "" : "FIX: ")\($0.text)\n" }.joined()
    }

    /// Doctor's JSON with a `sticks` member.
    static func adding(_ sticks: [StickReport], to json: Data) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else { return json }
        object["sticks"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sticks))
        return try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}
