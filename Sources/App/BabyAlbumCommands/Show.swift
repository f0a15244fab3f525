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

/// The slideshow itself (the default subcommand).
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the photos of a folder, a different one every interval (the default).")

    @OptionGroup var folders: FolderOptions

    @Option(
        help: "join: a stick's photos join the round at once; replace: while a stick is in, only its photos are shown.")
    var stickPhotos = StickPhotos.join

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds each photo stays on screen, 1 to 86400 (fractions allowed).", valueName: "seconds"))
    var interval = DecimalOption(15)

    @Option(
        parsing: .unconditional,
        help: "Show this many photos, 1 to 1000000000, then exit 0 (default: run until the exit button).")
    var count: Int?

    @OptionGroup var screen: ScreenOptions

    @Option(
        help: ArgumentHelp(
            "With drm output and no display there: exit (with the reason), or run (the slideshow goes on "
                + "with no screen, and starts again on a display once one is connected).",
            valueName: "exit|run"))
    var withoutDisplay = SlideshowConfiguration.WithoutDisplay.exit

    @Option(help: "Frame size for png output, WxH: each side 16 to 7680, at most 7680x4320 in all.")
    var size = SizeOption(FrameSize(width: 1920, height: 1080))

    @Option(
        help: ArgumentHelp(
            "Display mode for drm output: native (or preferred) for the display's own mode, or WxH as for --size "
                + "(default: the display's own mode up to 1920x1200; a larger one, like a 4K television's, is "
                + "replaced by the largest mode up to 1920x1200 of the same shape).", valueName: "native|WxH"))
    var mode: ModeOption?

    @Option(
        help: ArgumentHelp(
            "auto: fill, but a photo that filling would crop by more than a fifth (a portrait photo on a "
                + "landscape screen) is shown whole over a blurred copy of itself (default); fill: cover the "
                + "screen, cropping; fit: the whole photo with black bars.",
            valueName: "auto|fill|fit"))
    var scale = ScaleMode.auto

    @Option(help: "fade: each new photo fades in over the last (default); none: it replaces it at once.")
    var transition = TransitionOption.fade

    @Option(parsing: .unconditional, help: "Seconds a fade takes, 0.3 to 5.")
    var fade = DecimalOption(1)

    @Option(
        parsing: .unconditional, help: "Seed for the photo order, 0 to 18446744073709551615, to make it reproducible.")
    var seed: UInt64?

    @OptionGroup var photoLimits: PhotoLimitOptions

    @OptionGroup var exitButton: ExitButtonOptions

    @Option(
        help: ArgumentHelp(
            "Folder that keeps the shuffle round across restarts, or 'none' (default: /var/lib/babyalbum "
                + "when writable, else a hidden file beside the photos; none with --seed).",
            valueName: "dir"))
    var stateDir: String?

    @OptionGroup var quiet: QuietOptions

    @OptionGroup var familyLibraryOptions: FamilyLibraryOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var updates: UpdateOptions

    @Option(help: ArgumentHelp("The child's name, as captions show it (for example Mia).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The child's birthday, YYYY-MM-DD, for the age in captions.", valueName: "date"))
    var birthday: String?

    @Option(
        help: ArgumentHelp(
            "A caption on each photo with a date (EXIF, or PNG tIME): none, age (the child's age that day), "
                + "date (the day), or age+date.", valueName: "none|age|date|age+date"))
    var caption = CaptionStyle.none

    @Option(help: ArgumentHelp("The captions' font file (tests).", visibility: .hidden))
    var captionFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Option(
        help: ArgumentHelp(
            "The card's update outcomes, told once on screen, or none (tests; default: "
                + "/var/lib/babyalbum/update-result on a screen, none for png output).", visibility: .hidden))
    var updateResult: String?

    @Option(
        help: ArgumentHelp(
            "The settings file, key = value lines (default: /boot/firmware/babyalbum.txt on a Raspberry Pi, "
                + "else /etc/babyalbum/babyalbum.conf); the command line wins over it.", valueName: "file"))
    var settings: String?

    @Flag(help: ArgumentHelp("Log tick-to-presented latency percentiles at exit (benchmarks).", visibility: .hidden))
    var statistics = false

    /// What this slideshow was resolved from, for the check after SIGHUP whether the settings
    /// file changed (set by ``BabyAlbumCommand/main()``; `nil`: no check).
    var resolvedFrom: SettingsAtStart?

    func validate() throws {
        try OptionRanges.check(interval.value, "--interval", in: OptionRanges.intervalInForce, unit: "seconds")
        if let count { try OptionRanges.check(count, "--count", in: OptionRanges.count, unit: "photos") }
        try OptionRanges.check(size.value, "--size")
        if case .size(let size)? = mode?.value { try OptionRanges.check(size, "--mode") }
        try OptionRanges.check(fade.value, "--fade", in: OptionRanges.fade, unit: "seconds")
        if let stateDir, stateDir != "none" {
            guard pathExists(stateDir) else {
                throw ValidationError("the state folder '\(stateDir)' does not exist (or use --state-dir none)")
            }
            guard isDirectory(stateDir) else {
                throw ValidationError("the state folder '\(stateDir)' is not a folder (or use --state-dir none)")
            }
        }
        _ = try captionPolicy()
        // A photo folder that does not exist or cannot be read is not a usage error: the frame
        // shows it as empty, says so in its log and in doctor, and shows its photos once it is
        // there (a parent renamed `photos` on the card; a stick's folder comes later).
        if case .png(let directory) = screen.output.value {
            for folder in folders.photos + (folders.stickRoot.map { [$0] } ?? [])
            where OutputOption.isInside(directory, folder: folder) {
                throw ValidationError(
                    "--output png:\(directory) is inside the photo folder '\(folder)': the frame would show its own frames"
                )
            }
        }
    }

    /// The file of the card's update outcomes that the frame tells on screen, if any.
    var updateResultFile: String? {
        switch (updateResult, screen.output.value) {
        case ("none"?, _), (nil, .png): nil
        case (nil, _): SlideshowConfiguration.cardUpdateResultFile
        case (let file?, _): file
        }
    }

    /// The captions asked for, checked.
    func captionPolicy() throws -> CaptionPolicy {
        let children = try CaptionOptions.children(
            names: name.map { [$0] } ?? [], birthdays: birthday.map { [$0] } ?? [], today: CaptionOptions.today)
        return try CaptionOptions.policy(style: caption, children: children)
    }

    func run() async throws {
        // Held until the slideshow's signal watcher takes over (a hang-up of tty1 while systemd
        // hands it over, a stop during start-up): never the default action before READY=1.
        HeldSignals.hold(SignalNumber.watched)
        quiet.applyTimeZone()
        LoggingSystem.bootstrap { EscapingLogHandler(label: $0) }
        var logger = Logger(label: "babyalbum")
        logger.logLevel = .info
        var configuration = SlideshowConfiguration(
            photos: folders.photos[0],
            interval: .milliseconds(Int64((interval.value * 1000).rounded())),
            count: count,
            output: screen.output.value,
            size: size.value,
            mode: mode?.value ?? .automatic,
            scale: scale,
            seed: seed,
            limits: photoLimits.limits,
            exitButton: exitButton.policy
        )
        configuration.reportsLatency = statistics
        configuration.quietHours = try quiet.schedule()
        configuration.quietMode = quiet.quietMode
        configuration.unsetClock = quiet.quietHoursWithoutClock
        configuration.clockNotice = quiet.clockNotice
        configuration.rotation = screen.rotate.value
        configuration.withoutDisplay = withoutDisplay
        configuration.transition =
            transition == .fade ? .fade(.milliseconds(Int64((fade.value * 1000).rounded()))) : .cut
        configuration.stateDirectory =
            switch stateDir {
            case nil: .automatic
            case "none": .none
            case let directory?: .directory(directory)
            }
        configuration.settingsChanged = resolvedFrom.map(SettingsWiring.changeDetector)
        configuration.extraPhotoFolders = Array(folders.photos.dropFirst())
        configuration.stickRoot = folders.stickRoot
        configuration.stickPhotos = stickPhotos
        configuration.caption = try captionPolicy()
        configuration.captionFont = captionFont
        configuration.updateResultFile = updateResultFile
        SignalDisposition.ignore(SignalNumber.brokenPipe)
        do {
            let end = try await Slideshow.run(configuration, logger: logger)
            switch end {
            case .restartRequested: try SettingsWiring.startAgain(because: "settings changed: starting again with them")
            case .displayConnected:
                try SettingsWiring.startAgain(because: "a display was connected: starting again to draw on it")
            default: break
            }
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
    }
}
