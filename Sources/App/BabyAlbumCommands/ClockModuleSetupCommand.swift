import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces
import QuietHours

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum clock-module-setup` (hidden): at every boot of the card, before the frame and
/// systemd-timesyncd, puts `clock-module`'s chip on the clock bus and sets the system clock from
/// it; one line says what happened, kept for `babyalbum doctor` too.
struct ClockModuleSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock-module-setup",
        abstract:
            "Put the clock module (clock-module) on the card's clock bus and set the clock from it (the card's boot).",
        shouldDisplay: false)

    @Option(help: "The settings file (default: as the slideshow's).")
    var settings: String?

    @Option(help: "The state file that babyalbum doctor and the frame read.")
    var status = ClockModuleReport.file

    func run() throws {
        let (_, _, resolution) = try SettingsWiring.resolve(commandLine: [], path: settings)
        for problem in SettingsConsumer.clockModuleSetup.problems(in: resolution) {
            print("clock-module-setup: \(problem)".escapingControlCharacters)
        }
        let chip = resolution.command.network.clockModule
        try? FileManager.default.removeItem(atPath: status)
        guard let state = ClockModuleSetup(chip: chip).run() else {
            print("clock-module-setup: no clock module (clock-module = none)")
            return
        }
        print(state.line)
        let temporary = status + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(state.fileText.utf8)) else {
            throw ValidationError("clock-module-setup: cannot write \(temporary)")
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: status)
    }
}
