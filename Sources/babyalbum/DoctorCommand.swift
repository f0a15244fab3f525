import ArgumentParser
import BabyAlbumApp
import BabyAlbumDoctor
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
#if canImport(Glibc)
    import Glibc
#endif

/// `babyalbum doctor`: checks the display, the input devices and exit button, the photo folder
/// and the service, prints what it found, and exits 1 when something would stop the frame.
///
/// Options not given come from the frame's settings in `/etc/default/babyalbum` (as the service
/// runs it), else from the slideshow's defaults.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check the display, input devices, exit button, photos and service; exit 1 if the frame would not work.",
        discussion: """
            Run it on the frame, e.g. over SSH: sudo babyalbum doctor
            Options not given are read from the frame's settings in /etc/default/babyalbum.
            Nothing changes on screen; input devices are grabbed and released at once.
            """)

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(
        help:
            "A photo folder (JPEG, PNG, WebP; subfolders included). Repeatable (default: the frame's settings, else Photos)."
    )
    var photos: [String] = []

    @Option(help: "The output to check: drm, drm:/dev/dri/cardN or png:DIR (default drm).")
    var output: OutputOption?

    @Option(help: "The exit button's key: a name (KEY_POWER) or a code (116). Repeatable (default KEY_POWER).")
    var exitKey: [String] = []

    @Option(
        help: """
            Only this input device may carry the exit button, a keyboard too: part of its name or phys \
            (gpio-keys/input0), or a /dev/input path. Default: any button that is not a keyboard.
            """)
    var exitDevice: String?

    @Option(parsing: .unconditional, help: "Seconds the exit button must be held, 0 to 60 (default 1).")
    var exitHold: DecimalOption?

    @Option(parsing: .unconditional, help: "Skip photos larger than this many megapixels, 1 to 1000 (default 100).")
    var maxPhotoMegapixels: DecimalOption?

    @Flag(help: "Only read each photo's header instead of decoding it (faster, finds fewer broken files).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "A quiet window, [DAYS ]HH:MM-HH:MM (repeatable; default: the frame's setting).", valueName: "spec"))
    var quietHours: [String] = []

    @Option(
        help:
            "How quiet hours keep the display quiet: off, black or dim[:PERCENT] (default: the frame's setting, else off)."
    )
    var quietMode: QuietMode?

    @Option(help: "The service's options file; ignored when missing.")
    var config = DoctorConfigFile.defaultPath

    @Option(
        help:
            "The frame's settings file (default: /boot/firmware/babyalbum.txt on a Raspberry Pi, else /etc/babyalbum/babyalbum.conf)."
    )
    var settingsFile: String?

    @Option(help: ArgumentHelp("Syncthing's home, for the frame's device ID (install.sh --sync).", visibility: .hidden))
    var syncHome = DoctorSyncProbe.defaultHome

    func validate() throws {
        _ = try quietSchedule(quietHours)
        for key in exitKey where KeyName.code(for: key) == nil {
            throw ValidationError("unknown --exit-key '\(key)': use a name like KEY_POWER or a number like 116")
        }
        if let exitHold {
            try OptionRanges.check(exitHold.value, "--exit-hold", in: OptionRanges.exitHold, unit: "seconds")
        }
        if let maxPhotoMegapixels {
            try OptionRanges.check(
                maxPhotoMegapixels.value, "--max-photo-megapixels", in: OptionRanges.maxPhotoMegapixels,
                unit: "megapixels")
        }
    }

    func run() async throws {
        let file = DoctorConfigFile.read(config)
        let settings = file ?? DoctorConfigFile(contents: "")
        // The slideshow's settings as the service runs it: the settings file under its command line.
        // Folders given here stand in for the frame's, in the settings check too.
        let given = photos.flatMap { ["--photos", $0] }
        let serviceLine = (settings.photos.map { ["--photos", $0] } ?? []) + settings.options + given
        let frame = Result { try SettingsWiring.resolveWithReport(commandLine: serviceLine, path: settingsFile) }
        let show = try? frame.get().show
        // Command-line options win over the frame's settings, which win over the defaults.
        let keys = exitKey.isEmpty ? show?.exitKey ?? settings.values(of: "--exit-key") : exitKey
        let codes = keys.compactMap(KeyName.code(for:))
        // A settings value out of range counts as absent here (the frame itself refuses it).
        func setting(_ name: String, in range: ClosedRange<Double>) -> Double? {
            settings.values(of: name).last.flatMap(DecimalOption.init(argument:)).map(\.value).flatMap {
                range.contains($0) ? $0 : nil
            }
        }
        let hold = exitHold?.value ?? show?.exitHold.value ?? setting("--exit-hold", in: OptionRanges.exitHold) ?? 1.0
        let megapixels =
            maxPhotoMegapixels?.value ?? show?.maxPhotoMegapixels.value
            ?? setting("--max-photo-megapixels", in: OptionRanges.maxPhotoMegapixels) ?? 100
        let outputValue =
            output?.value ?? show?.output.value
            ?? settings.values(of: "--output").last.flatMap(OutputOption.init(argument:))?.value
            ?? .drm(device: nil)
        // Every folder the slideshow would read: these options, else the settings, else the default.
        let folders = !photos.isEmpty ? photos : show?.photos ?? settings.photos.map { [$0] } ?? ["Photos"]
        let sticks = StickSurvey.survey(countPhotos: DoctorProbes.shownPhotoCount(in:))
        var options = DoctorOptions(
            photos: folders.first ?? "Photos",
            output: outputValue,
            exitButton: ExitButtonPolicy(
                keyCodes: codes.isEmpty ? ExitButtonPolicy.default.keyCodes : codes,
                device: exitDevice ?? show?.exitDevice ?? settings.values(of: "--exit-device").last,
                hold: .milliseconds(Int64((hold * 1000).rounded()))),
            limits: PhotoLimits(maxMegapixels: megapixels),
            headersOnly: quick)
        options.extraPhotoFolders = Array(folders.dropFirst())
        options.stickPhotos = show?.sticks == "none" ? 0 : sticks.compactMap(\.photoCount).reduce(0, +)
        options.quietHours = try quietSchedule(
            quietHours.isEmpty ? show?.quietHours ?? settings.values(of: "--quiet-hours") : quietHours)
        options.quietMode =
            quietMode ?? show?.quietMode ?? settings.values(of: "--quiet-mode").last.flatMap(QuietMode.init(argument:))
            ?? .off
        options.rotation =
            show?.rotate.value ?? settings.values(of: "--rotate").last.flatMap(RotateOption.init(argument:))?.value
            ?? .automatic

        let report = DoctorProbes.run(options)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(DoctorJSON(report: report, settings: frame, sticks: sticks))
            writeAll(String(decoding: data, as: UTF8.self) + "\n", to: STDOUT_FILENO)
        } else {
            if file != nil { print("Service options from \(config)") }
            print(SettingsWiring.text(frame))
            print(DoctorSticks.text(sticks))
            print(report.text, terminator: "")
            if let sync = DoctorSyncProbe.line(home: syncHome) { print(sync) }
        }
        if !report.ok || (file != nil && (try? frame.get()) == nil) { throw ExitCode.failure }
    }
}
