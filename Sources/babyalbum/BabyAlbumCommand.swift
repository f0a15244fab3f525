import AlbumDomain
import ArgumentParser
import BabyAlbumApp
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
#if canImport(Glibc)
    import Glibc
#endif

/// `babyalbum`: a child-safe photo frame. Shows the photos (JPEG, PNG, WebP) of folders full screen, a
/// different one every interval, and leaves only by the hardware exit button.
@main
struct BabyAlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "babyalbum",
        abstract: "A child-safe photo frame: a full-screen slideshow that only a hardware button can end.",
        subcommands: [Show.self, Doctor.self, SettingsCommand.self, BenchmarkDecode.self],
        defaultSubcommand: Show.self
    )

    /// Runs the command with `arguments`. A usage error is one line on standard error and exit
    /// status 64 (the usage text is `--help`'s job), so a bad value reads as one log line.
    static func main(_ arguments: [String]?) async {
        MemoryPolicy.apply()
        do {
            var command = try await asyncParseAsRoot(arguments)
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
        writeAll("babyalbum: \(message) (see babyalbum --help)\n", to: STDERR_FILENO)
        exit(withError: ExitCode.validationFailure)
    }
}

/// The slideshow itself (the default subcommand).
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the photos of a folder, a different one every interval (the default).")

    @Option(help: "A folder of photos (subfolders included). Repeatable: the photos of every folder are shown.")
    var photos: [String] = ["Photos"]

    @Option(
        help: ArgumentHelp(
            "The folder below which USB sticks are mounted: each mount's photos are shown while it is there, or 'none'.",
            valueName: "dir"))
    var sticks = "/media/babyalbum"

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

    @Option(
        help:
            "Where to draw: drm (the first display), drm:/dev/dri/cardN, png:DIR (frame-NNNN.png files), or memory (benchmarks)."
    )
    var output = OutputOption.drm(device: nil)

    @Option(help: "Frame size for png output, WxH: each side 16 to 7680, at most 7680x4320 in all.")
    var size = SizeOption(FrameSize(width: 1920, height: 1080))

    @Option(help: "Display mode for drm output, WxH as for --size (default: the display's preferred mode).")
    var mode: SizeOption?

    @Option(
        help: ArgumentHelp(
            "auto: fill, but a photo that filling would crop by more than a fifth (a portrait photo on a "
                + "landscape screen) is shown whole over a blurred copy of itself (default); fill: cover the "
                + "screen, cropping; fit: the whole photo with black bars.",
            valueName: "auto|fill|fit"))
    var scale = ScaleMode.auto

    @Option(
        help: ArgumentHelp(
            "How the screen is mounted, turned clockwise: auto (the kernel's panel orientation; 0 for png output), "
                + "0, 90 (the panel's left side up), 180 or 270 (its right side up).",
            valueName: "auto|0|90|180|270"))
    var rotate = RotateOption(argument: "auto")!

    @Option(help: "fade: each new photo fades in over the last (default); none: it replaces it at once.")
    var transition = TransitionOption.fade

    @Option(parsing: .unconditional, help: "Seconds a fade takes, 0.3 to 5.")
    var fade = DecimalOption(1)

    @Option(
        parsing: .unconditional, help: "Seed for the photo order, 0 to 18446744073709551615, to make it reproducible.")
    var seed: UInt64?

    @Option(parsing: .unconditional, help: "Skip photos larger than this many megapixels, 1 to 1000.")
    var maxPhotoMegapixels = DecimalOption(100)

    @Option(
        parsing: .unconditionalSingleValue,
        help: "The exit button's key: a name (KEY_POWER, KEY_HOMEPAGE) or a code (116). Repeatable.")
    var exitKey: [String] = ["KEY_POWER"]

    @Option(
        help: """
            Only this input device may carry the exit button, a keyboard too: part of its name or phys \
            (gpio-keys/input0), or a /dev/input path. Default: any button that is not a keyboard.
            """)
    var exitDevice: String?

    @Option(parsing: .unconditional, help: "Seconds the exit button must be held, 0 to 60 (0 exits on press).")
    var exitHold = DecimalOption(1)

    @Option(
        help: ArgumentHelp(
            "Folder that keeps the shuffle round across restarts, or 'none' (default: /var/lib/babyalbum "
                + "when writable, else a hidden file beside the photos; none with --seed).",
            valueName: "dir"))
    var stateDir: String?

    @Option(
        help: ArgumentHelp(
            "Keep the display quiet in this window of local time: [DAYS ]HH:MM-HH:MM, e.g. 'mon-fri 19:00-07:00' "
                + "or 'sat,sun 20:00-08:30' (repeatable).", valueName: "spec"))
    var quietHours: [String] = []

    @Option(
        help: ArgumentHelp(
            "During quiet hours: off (the display off), black (signal on, a black picture), or dim[:PERCENT] (the "
                + "backlight lowered, default 10; black without a backlight)."))
    var quietMode = QuietMode.off
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
            "The settings file, key = value lines (default: /boot/firmware/babyalbum.txt on a Raspberry Pi, "
                + "else /etc/babyalbum/babyalbum.conf); the command line wins over it.", valueName: "file"))
    var settings: String?

    @Flag(help: ArgumentHelp("Log tick-to-presented latency percentiles at exit (benchmarks).", visibility: .hidden))
    var statistics = false

    func validate() throws {
        try OptionRanges.check(interval.value, "--interval", in: OptionRanges.intervalInForce, unit: "seconds")
        if let count { try OptionRanges.check(count, "--count", in: OptionRanges.count, unit: "photos") }
        try OptionRanges.check(size.value, "--size")
        if let mode { try OptionRanges.check(mode.value, "--mode") }
        try OptionRanges.check(
            maxPhotoMegapixels.value, "--max-photo-megapixels", in: OptionRanges.maxPhotoMegapixels, unit: "megapixels")
        try OptionRanges.check(fade.value, "--fade", in: OptionRanges.fade, unit: "seconds")
        try OptionRanges.check(exitHold.value, "--exit-hold", in: OptionRanges.exitHold, unit: "seconds")
        for key in exitKey where KeyName.code(for: key) == nil {
            throw ValidationError("unknown --exit-key '\(key)': use a name like KEY_POWER or a number like 116")
        }
        if let stateDir, stateDir != "none" {
            guard pathExists(stateDir) else {
                throw ValidationError("the state folder '\(stateDir)' does not exist (or use --state-dir none)")
            }
            guard isDirectory(stateDir) else {
                throw ValidationError("the state folder '\(stateDir)' is not a folder (or use --state-dir none)")
            }
        }
        _ = try quietSchedule(quietHours)
        _ = try captionPolicy()
        for folder in photos {
            guard isDirectory(folder) else {
                throw ValidationError("the photo folder '\(folder)' does not exist (use --photos DIR)")
            }
        }
        if case .png(let directory) = output.value {
            for folder in photos + (sticks == "none" ? [] : [sticks])
            where OutputOption.isInside(directory, folder: folder) {
                throw ValidationError(
                    "--output png:\(directory) is inside the photo folder '\(folder)': the frame would show its own frames"
                )
            }
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
        HeldSignals.hold([SIGTERM, SIGINT, SIGQUIT, SIGHUP])
        LoggingSystem.bootstrap { EscapingLogHandler(label: $0) }
        var logger = Logger(label: "babyalbum")
        logger.logLevel = .info
        var configuration = SlideshowConfiguration(
            photos: photos[0],
            interval: .milliseconds(Int64((interval.value * 1000).rounded())),
            count: count,
            output: output.value,
            size: size.value,
            mode: mode?.value,
            scale: scale,
            seed: seed,
            limits: PhotoLimits(maxMegapixels: maxPhotoMegapixels.value),
            exitButton: ExitButtonPolicy(
                keyCodes: exitKey.compactMap(KeyName.code(for:)), device: exitDevice,
                hold: .milliseconds(Int64((exitHold.value * 1000).rounded())))
        )
        configuration.reportsLatency = statistics
        configuration.quietHours = try quietSchedule(quietHours)
        configuration.quietMode = quietMode
        configuration.rotation = rotate.value
        configuration.transition =
            transition == .fade ? .fade(.milliseconds(Int64((fade.value * 1000).rounded()))) : .cut
        configuration.stateDirectory =
            switch stateDir {
            case nil: .automatic
            case "none": .none
            case let directory?: .directory(directory)
            }
        configuration.settingsChanged = SettingsWiring.changeDetector()
        configuration.extraPhotoFolders = Array(photos.dropFirst())
        configuration.stickRoot = sticks == "none" ? nil : sticks
        configuration.stickPhotos = stickPhotos
        configuration.caption = try captionPolicy()
        configuration.captionFont = captionFont
        signal(SIGPIPE, SIG_IGN)
        do {
            let end = try await Slideshow.run(configuration, logger: logger)
            if end == .signal(SIGHUP) { SettingsWiring.restartWithNewSettings() }
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
    }
}
