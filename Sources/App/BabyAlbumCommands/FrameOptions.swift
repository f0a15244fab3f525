import AlbumDomain
import ArgumentParser
import EvdevInput
import PhotoCodec
import QuietHours

// The options that `show` and `doctor` share, one group each: the doctor takes the same options,
// and builds the frame's settings from them with the same `SettingsResolver` as `show`.

/// Where the photos come from.
struct FolderOptions: ParsableArguments {
    @Option(help: "A folder of photos (subfolders included). Repeatable: the photos of every folder are shown.")
    var photos: [String] = ["Photos"]

    @Option(
        help: ArgumentHelp(
            "The folder below which USB sticks are mounted: each mount's photos are shown while it is there, or 'none'.",
            valueName: "dir"))
    var sticks = "/media/babyalbum"

    /// The folder below which sticks are mounted, nil for `none`.
    var stickRoot: String? { sticks == "none" ? nil : sticks }
}

/// Where the frame draws, and how its screen is mounted.
struct ScreenOptions: ParsableArguments {
    @Option(
        help:
            "Where to draw: drm (the first display), drm:/dev/dri/cardN, png:DIR (frame-NNNN.png files), or memory (benchmarks)."
    )
    var output = OutputOption.drm(device: nil)

    @Option(
        help: ArgumentHelp(
            "How the screen is mounted, turned clockwise: auto (the kernel's panel orientation; 0 for png output), "
                + "0, 90 (the panel's left side up), 180 or 270 (its right side up).",
            valueName: "auto|0|90|180|270"))
    var rotate = RotateOption(argument: "auto")!
}

/// The largest photo decoded.
struct PhotoLimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Skip photos larger than this many megapixels, 1 to 1000.")
    var maxPhotoMegapixels = DecimalOption(100)

    func validate() throws {
        try OptionRanges.check(
            maxPhotoMegapixels.value, "--max-photo-megapixels", in: OptionRanges.maxPhotoMegapixels, unit: "megapixels")
    }

    /// The decoders' limits.
    var limits: PhotoLimits { PhotoLimits(maxMegapixels: maxPhotoMegapixels.value) }
}

/// The hardware exit button.
struct ExitButtonOptions: ParsableArguments {
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

    func validate() throws {
        try OptionRanges.check(exitHold.value, "--exit-hold", in: OptionRanges.exitHold, unit: "seconds")
        for key in exitKey where KeyName.code(for: key) == nil {
            throw ValidationError("unknown --exit-key '\(key)': use a name like KEY_POWER or a number like 116")
        }
    }

    /// The exit button these options describe.
    var policy: ExitButtonPolicy {
        ExitButtonPolicy(
            keyCodes: exitKey.compactMap(KeyName.code(for:)), device: exitDevice,
            hold: .milliseconds(Int64((exitHold.value * 1000).rounded())))
    }
}

/// Quiet hours: when and how the display keeps quiet.
struct QuietOptions: ParsableArguments {
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

    @Option(
        help: ArgumentHelp(
            "Until the system clock is set (network time or a clock module), quiet hours mean nothing: "
                + "keep-showing (the photos all day) or dark (quiet until the clock is set)."))
    var quietHoursWithoutClock = UnsetClockPolicy.keepShowing

    @Option(
        help: ArgumentHelp(
            "While the system clock is not set, a small line says so on screen for the first minute: auto (on a "
                + "screen, not in png: files), on or off."))
    var clockNotice = ClockNoticeSetting.auto

    @Option(
        help: ArgumentHelp(
            "The time zone of the quiet hours and captions, e.g. Europe/Berlin (default: the system's).",
            valueName: "zone"))
    var timeZone: String?

    func validate() throws {
        _ = try schedule()
        if let timeZone, let problem = LocalTimeCalendar.problem(withZone: timeZone) {
            throw ValidationError("--time-zone: \(problem)")
        }
    }

    /// Makes `--time-zone`, when given, this process's wall clock.
    func applyTimeZone() {
        if let timeZone { LocalTimeCalendar.use(zone: timeZone) }
    }

    /// The quiet windows, checked.
    func schedule() throws(ValidationError) -> QuietSchedule { try quietSchedule(quietHours) }
}
