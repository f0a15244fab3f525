import AlbumDomain
import DRMDisplay

/// What `babyalbum doctor` found: the display, the input devices, the photo folder and the
/// service, and the problems that would stop the frame from working.
///
/// Encoded as JSON for `--json`; ``DoctorReport/text`` is the readable form.
public struct DoctorReport: Codable, Sendable, Equatable {
    /// `true` when nothing would stop the frame (``problems`` is empty).
    public var ok: Bool
    /// What would stop the frame from working, one sentence each, with what to do.
    public var problems: [String]
    /// What is worth knowing but does not stop the frame.
    public var warnings: [String]
    /// The DRM cards and the display BabyAlbum would use.
    public var display: DoctorDisplaySection
    /// The input devices and the exit button.
    public var input: DoctorInputSection
    /// The photo folder.
    public var photos: DoctorPhotoSection
    /// The systemd service and its user.
    public var service: DoctorServiceSection
    /// The system clock and the quiet hours.
    public var clock: DoctorClockSection?
    /// The card's system slots and updates; `nil` off the card.
    public var updates: DoctorUpdatesSection?

    /// Assembles a report and derives ``ok``, ``problems`` and ``warnings`` from the sections.
    public init(
        display: DoctorDisplaySection, input: DoctorInputSection, photos: DoctorPhotoSection,
        service: DoctorServiceSection
    ) {
        self.display = display
        self.input = input
        self.photos = photos
        self.service = service
        self.problems = [display.problem, input.problem, photos.problem, service.problem].compactMap { $0 }
        self.warnings = display.warnings + input.warnings + photos.warnings + service.warnings
        self.ok = problems.isEmpty
    }
}

/// The display part of a ``DoctorReport``.
public struct DoctorDisplaySection: Codable, Sendable, Equatable {
    /// Whether the frame draws on a screen (`--output drm`); `false` for `--output png:`.
    public var required: Bool
    /// Every `/dev/dri/card*`, as ``DRMProbe`` saw it.
    public var cards: [DRMCardReport]
    /// The card, connector and mode BabyAlbum would use, like `/dev/dri/card0 HDMI-A-1 1920x1080@60`.
    public var chosen: String?
    /// Why no display can be used, if none can.
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]
    /// How photos are turned for the screen, and why (`--rotate`, or the panel orientation).
    public var rotation: String?

    /// Derives ``chosen`` and ``problem`` from `cards`.
    public init(required: Bool, cards: [DRMCardReport]) {
        self.required = required
        self.cards = cards
        self.warnings = []
        if let card = cards.first(where: \.isChosen), let connector = card.connectors.first(where: \.isChosen) {
            chosen = "\(card.path) \(connector.name)" + (connector.chosenMode.map { " \($0)" } ?? "")
            problem = nil
        } else {
            chosen = nil
            problem = required ? "display: \(DRMProbe.failure(cards).description)" : nil
        }
    }

    /// Says how photos would be turned: as `setting` fixes it, or for `auto` from the chosen
    /// connector's panel orientation.
    public mutating func describeRotation(_ setting: RotationSetting) {
        guard required else { return }
        switch setting {
        case .fixed(let rotation):
            self.rotation = "for a screen mounted \(rotation) (--rotate)"
        case .automatic:
            let chosen = cards.first(where: \.isChosen)?.connectors.first(where: \.isChosen)
            if let orientation = chosen?.panelOrientation, let rotation = ScreenRotation(panelOrientation: orientation)
            {
                self.rotation =
                    "for a screen mounted \(rotation) (--rotate auto: the panel orientation is \(orientation))"
            } else {
                self.rotation = "upright, 0° (--rotate auto: the display reports no panel orientation)"
            }
        }
    }
}

/// One input device in a ``DoctorInputSection``.
public struct DoctorInputDevice: Codable, Sendable, Equatable {
    /// The event node, like `/dev/input/event2`.
    public var path: String
    /// The device's name, when it could be opened.
    public var name: String?
    /// Whether it could be opened.
    public var opened: Bool
    /// Whether BabyAlbum could grab it (doctor grabs and releases it at once).
    public var grabbable: Bool
    /// The exit keys that count from it (names like `KEY_POWER`); empty if it may not end the slideshow.
    public var exitKeys: [String]
    /// Why it may or may not end the slideshow (`a keyboard (it has letter keys)…`).
    public var exitReason: String?
    /// What went wrong, if anything.
    public var error: String?

    /// Creates an entry.
    public init(
        path: String, name: String?, opened: Bool, grabbable: Bool, exitKeys: [String], exitReason: String? = nil,
        error: String?
    ) {
        self.path = path
        self.name = name
        self.opened = opened
        self.grabbable = grabbable
        self.exitKeys = exitKeys
        self.exitReason = exitReason
        self.error = error
    }
}

/// The input part of a ``DoctorReport``.
public struct DoctorInputSection: Codable, Sendable, Equatable {
    /// Whether input matters (`--output drm`).
    public var required: Bool
    /// The exit keys looked for (names).
    public var exitKeys: [String]
    /// `--exit-device`, if given.
    public var exitDevice: String?
    /// How long the button must be held, in seconds.
    public var exitHoldSeconds: Double
    /// Every `/dev/input/event*`.
    public var devices: [DoctorInputDevice]
    /// Whether a running BabyAlbum holds the grabs (so failed grabs are expected).
    public var heldByRunningFrame: Bool
    /// The devices carrying the exit button (paths).
    public var exitButtonDevices: [String]
    /// What stops the frame, if anything.
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// Derives ``exitButtonDevices``, ``problem`` and ``warnings`` from `devices`.
    public init(
        required: Bool, exitKeys: [String], exitDevice: String?, exitHoldSeconds: Double,
        devices: [DoctorInputDevice], heldByRunningFrame: Bool
    ) {
        self.required = required
        self.exitKeys = exitKeys
        self.exitDevice = exitDevice
        self.exitHoldSeconds = exitHoldSeconds
        self.devices = devices
        self.heldByRunningFrame = heldByRunningFrame
        self.exitButtonDevices = devices.filter { !$0.exitKeys.isEmpty }.map(\.path)
        var warnings: [String] = []
        var problem: String? = nil
        let keys = exitKeys.joined(separator: " or ")
        let restriction =
            exitDevice.map { " on a device matching --exit-device '\($0)'" } ?? " on a button that is not a keyboard"
        if devices.isEmpty {
            problem = "no input devices in /dev/input: the exit button (\(keys)) cannot be found"
        } else if !devices.contains(where: \.opened) {
            let reason = devices.compactMap(\.error).first ?? "unknown error"
            problem = "cannot open any input device: \(reason)"
        } else if exitButtonDevices.isEmpty {
            problem =
                "no input device sends the exit key \(keys)\(restriction): the frame could only be "
                + "left by power or SSH (check the button's wiring and --exit-key/--exit-device)"
        }
        for device in devices where !device.grabbable && device.path.contains("/event") {
            let label = device.name.map { "\(device.path) '\($0)'" } ?? device.path
            if heldByRunningFrame && device.opened {
                continue  // The running frame holds the grab, as it should.
            }
            warnings.append("\(label) cannot be grabbed: \(device.error ?? "unknown error"); a child could use it")
        }
        self.problem = required ? problem : nil
        self.warnings = required ? warnings : []
    }
}

/// One file the slideshow skips, and why.
public struct DoctorSkippedFile: Codable, Sendable, Equatable {
    /// The file.
    public var path: String
    /// Why it is not shown.
    public var reason: String

    /// Creates an entry.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// The photo-folder part of a ``DoctorReport``. Paths are printable: control characters and
/// bytes that are not UTF-8 are escaped (``PhotoID/description``), so a file name cannot forge
/// a line of the report.
public struct DoctorPhotoSection: Codable, Sendable, Equatable {
    /// The folder.
    public var folder: String
    /// How many photos decode.
    public var valid: Int
    /// How many of them have a usable capture date for captions (EXIF `DateTimeOriginal`, or PNG
    /// `tIME`); counted when photos are decoded (not with `--quick`).
    public var dated = 0
    /// How many of them carry each colour profile, by its description (ICC, or made from a PNG's
    /// cICP or cHRM and gAMA; "(ignored)" after one that is not used); counted when photos are
    /// decoded (not with `--quick`).
    public var colourProfiles: [String: Int] = [:]
    /// Every file that is not shown (broken, not a photo, hidden…), with the reason.
    public var skipped: [DoctorSkippedFile]
    /// HEIC, HEIF and AVIF files: recognised, not decoded, counted apart from broken files; the
    /// reason says what to do.
    public var notDecoded: [DoctorSkippedFile]
    /// Files whose content and extension disagree (shown by their content).
    public var mismatched: [DoctorSkippedFile]
    /// How many folders the slideshow would watch (the photo folder included).
    public var folders: Int
    /// Whether only headers were read (`--quick`) instead of decoding every photo.
    public var headersOnly: Bool
    /// What stops the frame, if anything (no folder, no valid photo).
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// Derives ``problem`` and ``warnings``; `failure` is why the folder cannot be read at all.
    public init(
        folder: String, valid: Int, skipped: [DoctorSkippedFile], headersOnly: Bool, failure: String?,
        notDecoded: [DoctorSkippedFile] = [], mismatched: [DoctorSkippedFile] = [], folders: Int = 0
    ) {
        self.folder = folder
        self.valid = valid
        self.skipped = skipped
        self.notDecoded = notDecoded
        self.mismatched = mismatched
        self.folders = folders
        self.headersOnly = headersOnly
        var warnings: [String] = []
        if let failure {
            problem = failure
        } else if valid == 0 {
            problem =
                "no valid photo in \(folder): the frame would stay black "
                + "(copy JPEG, PNG, WebP, HEIC, HEIF or AVIF photos into it)"
        } else {
            problem = nil
        }
        if failure == nil, !skipped.isEmpty {
            warnings.append("\(skipped.count) file(s) in \(folder) are skipped (listed under Photos)")
        }
        if !notDecoded.isEmpty {
            warnings.append(
                "\(notDecoded.count) HEIC/HEIF/AVIF file(s) are not shown: export them as JPEG (on the iPhone, "
                    + "Settings > Camera > Formats > Most Compatible makes new photos JPEG)")
        }
        if !mismatched.isEmpty {
            warnings.append("\(mismatched.count) file(s) have an extension that does not match their content")
        }
        self.warnings = warnings
    }
}

/// The service part of a ``DoctorReport``.
public struct DoctorServiceSection: Codable, Sendable, Equatable {
    /// The unit, `babyalbum.service`.
    public var unit: String
    /// Whether systemd is the running init system (PID 1).
    public var systemdRunning: Bool
    /// The unit file, if installed.
    public var unitFile: String?
    /// `systemctl is-enabled`: enabled, disabled, masked..., `nil` when unknown.
    public var enabled: String?
    /// `systemctl is-active`: active, inactive, failed, activating..., `nil` without systemd.
    public var active: String?
    /// Whether the service user `babyalbum` exists.
    public var userExists: Bool
    /// The groups among video, input and tty the service user lacks.
    public var userMissingGroups: [String]
    /// The units that failed in this boot (`systemctl --failed`): on the card, a partition that did
    /// not mount, which the frame runs without.
    public var failedUnits: [String] = []
    /// What stops the frame, if anything.
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// Derives ``problem`` and ``warnings``.
    public init(
        unit: String, systemdRunning: Bool, unitFile: String?, enabled: String?, active: String?,
        userExists: Bool, userMissingGroups: [String], failedUnits: [String] = []
    ) {
        self.unit = unit
        self.systemdRunning = systemdRunning
        self.unitFile = unitFile
        self.enabled = enabled
        self.active = active
        self.userExists = userExists
        self.userMissingGroups = userMissingGroups
        self.failedUnits = failedUnits
        var problem: String? = nil
        var warnings: [String] = []
        if unitFile != nil {
            if !userExists {
                problem = "the service user babyalbum does not exist (run deploy/install.sh again)"
            } else if !userMissingGroups.isEmpty {
                problem =
                    "the service user babyalbum is not in the group(s) "
                    + userMissingGroups.joined(separator: ", ") + " (run deploy/install.sh again)"
            } else if active == "failed" {
                problem = "\(unit) has failed: see `journalctl -u \(unit) -b`"
            }
            if enabled != nil, enabled != "enabled" {
                warnings.append("\(unit) is \(enabled!): it will not start at boot (sudo systemctl enable \(unit))")
            }
            if active == "inactive" {
                warnings.append("\(unit) is not running (after the exit button: sudo systemctl start \(unit))")
            }
            if !systemdRunning {
                warnings.append("systemd is not the init system here: the service cannot run")
            }
        }
        warnings += failedUnits.map(Self.failedUnitWarning)
        self.problem = problem
        self.warnings = warnings
    }

    /// What a unit that failed in this boot means for the frame, in a parent's words where the
    /// unit is one of the card's partitions.
    static func failedUnitWarning(_ unit: String) -> String {
        let meaning: String
        switch unit {
        case "boot-firmware.mount":
            meaning = "the BABYALBUM partition did not mount: its photos and babyalbum.txt are not read"
        case "systemd-fsck-root.service":
            meaning = "the system partition failed its check: if this stays, re-flash the card"
        case "var-lib-babyalbum.mount":
            meaning = "the state partition did not mount: photos may come round again after a restart"
        case "var-lib-babyalbum\\x2dsync.mount", "var-lib-babyalbum\\x2dlibrary.mount":
            meaning = "the family library did not mount: its photos are not shown"
        default:
            meaning = "see `journalctl -b -u \(unit)`"
        }
        return "\(unit) failed in this boot: \(meaning); the frame shows what it has"
    }

    /// Whether the service is running (so it holds the display and the input grabs).
    public var isRunning: Bool { active == "active" || active == "activating" || active == "reloading" }
}
