import AlbumDomain
import ArgumentParser
import BabyAlbumApp
import DRMDisplay
import EvdevInput
import LinuxInterfaces
import Logging
import PhotoCodec
import PhotoSources
import QuietHours

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum`: a child-safe photo frame. Shows the photos (every ``PhotoFormat``) of folders full
/// screen, a different one every interval, and leaves only by the hardware exit button.
struct BabyAlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "babyalbum",
        abstract: "A child-safe photo frame: a full-screen slideshow that only a hardware button can end.",
        version: BabyAlbumVersion.current,
        subcommands: [
            Show.self, Doctor.self, SettingsCommand.self, NetworkSetup.self, WiFiWatch.self,
            ClockModuleSetupCommand.self, FamilyLibraryCommand.self, UpdatePolicyCommand.self,
        ],
        defaultSubcommand: Show.self
    )

    /// Runs the command with `arguments`. A usage error is one line on standard error and exit
    /// status 64 (the usage text is `--help`'s job), so a bad value reads as one log line.
    static func main(_ arguments: [String]?) async {
        MemoryPolicy.apply()
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var doctor = command as? Doctor {
                // The doctor tells the options given from the defaults by its words.
                let words = arguments ?? Array(CommandLine.arguments.dropFirst())
                doctor.arguments = Array(words.drop { $0 != "doctor" }.dropFirst())
                command = doctor
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitOnOneLine(error)
        }
    }

    /// Exits for `error`: a usage error as one line and status 64, anything else as ArgumentParser does.
    static func exitOnOneLine(_ error: any Error) -> Never {
        guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
        let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        writeToStandardError("babyalbum: \(message) (see babyalbum --help)\n")
        exit(withError: ExitCode.validationFailure)
    }
}
