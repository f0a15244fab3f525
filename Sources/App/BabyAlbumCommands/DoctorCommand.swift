import AlbumDomain
import ArgumentParser
import BabyAlbumApp
import BabyAlbumDoctor
import BabyAlbumSettings
import DecodeSandbox
import EvdevInput
import LinuxInterfaces
import PhotoCodec
import PhotoSources
import QuietHours

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum doctor`: checks the display, the input devices and exit button, the photo folder
/// and the service, prints what it found, and exits 1 when something would stop the frame.
///
/// Options not given come from the frame's settings: the settings file under `/etc/default/babyalbum`'s
/// command line, resolved by the same `SettingsResolver` as `show`, with the same option groups.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check the display, input devices, exit button, photos and service; exit 1 if the frame would not work.",
        discussion: """
            Run it on the frame, e.g. over SSH: sudo babyalbum doctor
            Options not given are read from the frame's settings (/etc/default/babyalbum, then the
            settings file), as the slideshow reads them, else take the defaults shown here.
            Nothing changes on screen; input devices are grabbed and released at once.
            """)

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var folders: FolderOptions

    @OptionGroup var screen: ScreenOptions

    @OptionGroup var exitButton: ExitButtonOptions

    @OptionGroup var photoLimits: PhotoLimitOptions

    @Flag(help: "Only read each photo's header instead of decoding it (faster, finds fewer broken files).")
    var quick = false

    @OptionGroup var quiet: QuietOptions

    @Option(help: "The service's options file; ignored when missing.")
    var config = DoctorConfigFile.defaultPath

    @Option(
        help:
            "The frame's settings file (default: /boot/firmware/babyalbum.txt on a Raspberry Pi, else /etc/babyalbum/babyalbum.conf)."
    )
    var settingsFile: String?

    @Option(help: ArgumentHelp("Syncthing's home, for the frame's device ID (install.sh --sync).", visibility: .hidden))
    var syncHome = DoctorSyncProbe.defaultHome

    /// The words the doctor was started with (after `doctor`), set by ``BabyAlbumCommand/main(_:)``:
    /// the options of the shared groups among them stand in for the frame's own.
    var arguments: [String] = []

    private enum CodingKeys: String, CodingKey {
        case json, folders, screen, exitButton, photoLimits, quick, quiet, config, settingsFile, syncHome
    }

    func run() async throws {
        let file = DoctorConfigFile.read(config)
        let service = file ?? DoctorConfigFile(contents: "")
        let frame = Self.resolveFrame(given: arguments, service: service, settingsFile: settingsFile)
        // A broken service line: this command's own options (given, else the defaults).
        let show = try? frame.get().show
        let folders = show?.folders ?? folders
        let sticks = StickSurvey.survey(countPhotos: DoctorProbes.shownPhotoCount(in:))
        var options = DoctorOptions(
            photos: folders.photos.first ?? "Photos",
            output: (show?.screen ?? screen).output.value,
            exitButton: (show?.exitButton ?? exitButton).policy,
            limits: (show?.photoLimits ?? photoLimits).limits,
            headersOnly: quick)
        options.extraPhotoFolders = Array(folders.photos.dropFirst())
        options.stickPhotos = folders.stickRoot == nil ? 0 : sticks.compactMap(\.photoCount).reduce(0, +)
        let quiet = show?.quiet ?? quiet
        quiet.applyTimeZone()
        options.quietHours = try quiet.schedule()
        options.quietMode = quiet.quietMode
        options.unsetClock = quiet.quietHoursWithoutClock
        options.rotation = (show?.screen ?? screen).rotate.value
        let interval = Duration.milliseconds(Int64(((show?.interval.value ?? 15) * 1000).rounded()))
        options.decodeDeadline = PublishPhoto(interval: max(interval, Duration.milliseconds(1))).decodeDeadline

        let settings: DoctorOutput.Settings =
            switch frame {
            case .success(let frame): .resolved(frame.report)
            case .failure(let error): .broken(Show.message(for: error))
            }
        let output = DoctorOutput(
            report: DoctorProbes.run(options), settings: settings, sticks: sticks,
            serviceOptionsFile: file == nil ? nil : config, syncLine: json ? nil : DoctorSyncProbe.line(home: syncHome))
        writeToStandardOutput(json ? try output.json() : output.text)
        if !output.ok { throw ExitCode.failure }
    }

    /// The slideshow's settings as the service runs it, resolved as `show` resolves them: the
    /// settings file at `settingsFile` under the `service`'s command line, under the shared
    /// options among `given` (the doctor's words), which replace the service's.
    static func resolveFrame(
        given arguments: [String], service: DoctorConfigFile, settingsFile: String?
    ) -> Result<(show: Show, report: SettingsReport), any Error> {
        let given = sharedOptions(in: arguments)
        let serviceLine = removing(
            SettingsResolver.longNames(in: given),
            from: (service.photos.map { ["--photos", $0] } ?? []) + service.options)
        return Result { try SettingsWiring.resolveWithReport(commandLine: serviceLine + given, path: settingsFile) }
    }

    /// The options of `words` that belong to the groups `show` shares with the doctor (the
    /// doctor's own, `--json`, `--config` and the like, left out).
    static func sharedOptions(in words: [String]) -> [String] {
        let own: Set<String> = ["json", "quick", "config", "settings-file", "sync-home", "help"]
        return removing(own, from: words)
    }

    /// `words` without the options named `keys` (`--key value` or `--key=value`): so that an
    /// option given to the doctor replaces the service's, for repeatable options too.
    static func removing(_ keys: Set<String>, from words: [String]) -> [String] {
        var kept: [String] = []
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            let name = word.hasPrefix("--") ? String(word.dropFirst(2).prefix { $0 != "=" }) : ""
            guard keys.contains(name) else {
                kept.append(word)
                index += 1
                continue
            }
            let takesNext = !word.contains("=") && !Self.flags.contains(name) && index + 1 < words.endIndex
            index += takesNext ? 2 : 1
        }
        return kept
    }

    /// The doctor's flags: they take no value.
    private static let flags: Set<String> = ["json", "quick", "help"]
}
