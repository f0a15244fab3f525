import BabyAlbumSettings
import Foundation

@testable import BabyAlbumCommands

/// A real photo folder for the command's `validate()` (which checks that folders exist), shared by
/// the suites of this target.
let photoFolder: String = {
    let folder = NSTemporaryDirectory() + "babyalbum-settings-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

/// `text` as `babyalbum.txt`, resolved by the slideshow command's own parser with `--photos` the
/// shared photo folder, then `commandLine`.
func resolve(_ text: String, commandLine: [String] = []) throws -> SettingsResolution<Show> {
    try SettingsResolver.resolve(
        Show.self, file: SettingsFile(path: "babyalbum.txt", contents: text),
        commandLine: ["--photos", photoFolder] + commandLine, ignoring: SettingsWiring.excludedKeys)
}
