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
}
