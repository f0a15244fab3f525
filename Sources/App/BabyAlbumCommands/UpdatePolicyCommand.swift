import ArgumentParser
import BabyAlbumSettings

/// `babyalbum update-policy` (hidden): the settings file's update settings, for the card's
/// `update-check`, which reads no settings file itself. Prints the lines left out that concern
/// updates, then `older-updates=yes` or `older-updates=no` (a line that is wrong in any way, a
/// typo in its key or value or a file that cannot be read, leaves `no`, the default) and
/// `quiet-hours=yes` or `quiet-hours=no` (whether the frame has quiet hours, when an update's
/// reboot waits for them).
struct UpdatePolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update-policy",
        abstract: "Print the settings file's update settings (for the card's update check).",
        shouldDisplay: false)

    @Option(help: "The settings file (default: as the slideshow's).")
    var settings: String?

    func run() throws {
        let (_, _, resolution) = try SettingsWiring.resolve(commandLine: [], path: settings)
        for line in Self.lines(for: resolution) { print(line) }
    }

    /// What the command prints for `resolution`: each update line left out, then the policy.
    static func lines(for resolution: SettingsResolution<Show>) -> [String] {
        SettingsConsumer.updateCheck.problems(in: resolution).map {
            "update-policy: \($0)".escapingControlCharacters
        } + [
            "older-updates=\(resolution.command.updates.olderUpdates.rawValue)",
            "quiet-hours=\(resolution.command.quiet.quietHours.isEmpty ? "no" : "yes")",
        ]
    }
}
