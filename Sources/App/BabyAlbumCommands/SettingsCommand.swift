import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces
import Logging
import PhotoCodec
import PhotoSources

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum settings`: the slideshow's settings in effect and where each came from, or the
/// commented example file that lists every key with its default.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the settings in effect and where each came from, or print an example settings file.")

    @Flag(help: "Print a commented example settings file listing every key with its default.")
    var example = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(
        help:
            "The settings file (default: /boot/firmware/babyalbum.txt on a Raspberry Pi, else /etc/babyalbum/babyalbum.conf)."
    )
    var settings: String?

    @Argument(parsing: .postTerminator, help: "Slideshow options as the service passes them, after --.")
    var options: [String] = []

    func run() throws {
        if example {
            print(SettingsWiring.example, terminator: "")
            return
        }
        let commandLine = options.first == "--" ? Array(options.dropFirst()) : options
        let report = try SettingsWiring.report(
            commandLine: commandLine + (settings.map { ["--settings", $0] } ?? []), path: settings)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            writeToStandardOutput(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            print(report.text, terminator: "")
        }
    }
}
