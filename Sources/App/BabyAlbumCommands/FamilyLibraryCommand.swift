import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces

/// `babyalbum family-library [--settings FILE] -- OPTIONS`: the family library settings in effect
/// under the slideshow's command line (OPTIONS, as the service passes them), for the card's pairing
/// script (`deploy/card/family-library`): a `problem FILE line N: REASON` line for each of
/// its lines left out, a `device ID` line each, then `network WORD`.
struct FamilyLibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family-library", abstract: "The family library's devices in effect (for the card).",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("The settings file (default: as the slideshow reads it).", valueName: "file"))
    var settings: String?

    @Argument(parsing: .postTerminator, help: "Slideshow options as the service passes them, after --.")
    var options: [String] = []

    func run() throws {
        let commandLine = options.first == "--" ? Array(options.dropFirst()) : options
        let (path, _, resolution) = try SettingsWiring.resolve(commandLine: commandLine, path: settings)
        // The file's own problems (not UTF-8, too large) and every family-library line left out,
        // whatever its reason (a refused address too).
        for problem in SettingsConsumer.familyLibrary.problems(in: resolution) {
            print("problem \(path) line \(problem.line): \(problem.reason)".escapingControlCharacters)
        }
        let options = resolution.command.familyLibraryOptions
        var printed: [SyncthingDeviceID] = []
        for device in try options.devices() where !printed.contains(device.id) {
            print("device \(device.id) \(device.address)")
            printed.append(device.id)
        }
        print("network \(options.familyLibraryNetwork.rawValue)")
        print("frame-name \(Self.frameName(child: resolution.command.name))")
    }

    /// The name the card's Syncthing shows the family: "BabyAlbum" and the child's name (from
    /// `name`), letters, digits, spaces, dots and dashes only (it goes into config.xml as it is);
    /// the card's script adds a short part of its device ID, so three frames are told apart.
    static func frameName(child: String?) -> String {
        let kept = (child ?? "").unicodeScalars.filter {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " || $0 == "." || $0 == "-"
        }
        let name = String(String.UnicodeScalarView(kept.prefix(40))).split(separator: " ").joined(separator: " ")
        return name.isEmpty ? "BabyAlbum" : "BabyAlbum \(name)"
    }
}
