import ArgumentParser
import BabyAlbumSettings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum network-setup` (hidden): at every boot, before systemd-timesyncd starts, writes the
/// settings file's network settings as drop-ins under `--out` (the card's `/run`, never the card).
struct NetworkSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network-setup",
        abstract: "Write the settings file's network settings as systemd drop-ins (for the card's boot).",
        shouldDisplay: false)

    @Option(help: "The folder the drop-ins go under.")
    var out = "/run"

    @Option(help: "The settings file (default: as the slideshow's).")
    var settings: String?

    func run() throws {
        let (path, _, resolution) = try SettingsWiring.resolve(
            commandLine: settings.map { ["--settings", $0] } ?? [], path: settings)
        for problem in resolution.problems where problem.reason.contains("time-servers") {
            print("network-setup: \(problem)")
        }
        let servers = resolution.command.network.servers
        try write(servers.timesyncdDropIn, to: "\(out)/systemd/timesyncd.conf.d/50-babyalbum.conf")
        print("network-setup: time servers \(servers) (from \(path))")
    }

    private func write(_ text: String, to file: String) throws {
        let folder = String(file[..<file.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
    }
}
