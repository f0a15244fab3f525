import AlbumDomain
import DRMDisplay
import DecodeSandbox
import EvdevInput
import FolderRepository
import LinuxInterfaces
import PhotoCodec
import QuietHours

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
/// What `babyalbum doctor` checks: the options of the slideshow it stands in for.
public struct DoctorOptions: Sendable {
    /// The photo folder.
    public var photos: String
    /// The other photo folders the slideshow would read (each real folder is read once).
    public var extraPhotoFolders: [String] = []
    /// The photos on USB sticks the slideshow would show: with none in the folders, the frame
    /// shows these and is not black.
    public var stickPhotos = 0
    /// Where the slideshow would draw; only `.drm` needs a display and input devices.
    public var output: FrameOutput
    /// The exit button.
    public var exitButton: ExitButtonPolicy
    /// Limits against hostile photos, as the slideshow applies them.
    public var limits: PhotoLimits
    /// Read only each photo's header instead of decoding it.
    public var headersOnly: Bool
    /// The systemd unit.
    public var unit: String
    /// The caps on folders and photos, as the slideshow applies them.
    public var folderLimits: FolderScanLimits = .standard
    /// The quiet hours.
    public var quietHours = QuietSchedule.none
    /// How they keep the display quiet.
    public var quietMode = QuietMode.off
    /// What they do before the wall clock is set.
    public var unsetClock = UnsetClockPolicy.keepShowing
    /// How the screen is mounted.
    public var rotation = RotationSetting.automatic
    /// The slideshow's decode workers: each photo is decoded in the same confined worker, with the
    /// same limits, as the slideshow decodes it, and a call the sandbox refuses is counted (this
    /// process links no decoder).
    public var decodeWorkers = DecodeWorkerPool()
    /// How long the slideshow waits for one photo's decode (``PublishPhoto/decodeDeadline`` of its
    /// interval): a photo the workers do not decode by then is reported as skipped, as the
    /// slideshow passes it over. `nil`: the pool's own deadline.
    public var decodeDeadline: Duration?

    /// Creates options.
    public init(
        photos: String, output: FrameOutput, exitButton: ExitButtonPolicy, limits: PhotoLimits,
        headersOnly: Bool = false, unit: String = "babyalbum.service"
    ) {
        self.photos = photos
        self.output = output
        self.exitButton = exitButton
        self.limits = limits
        self.headersOnly = headersOnly
        self.unit = unit
    }
}

/// Runs the checks of `babyalbum doctor`. Nothing changes on screen: cards are only queried, input
/// devices are grabbed and released at once.
public enum DoctorProbes {
    /// Checks everything and returns the report.
    public static func run(_ options: DoctorOptions) -> DoctorReport {
        let service = service(unit: options.unit)
        var display = display(options.output)
        display.describeRotation(options.rotation)
        var report = DoctorReport(
            display: display,
            input: input(options, heldByRunningFrame: service.isRunning),
            photos: photos(options),
            service: service)
        report.add(
            clock: DoctorClockSection.probe(
                schedule: options.quietHours, mode: options.quietMode, unsetClock: options.unsetClock))
        if let updates = DoctorUpdatesSection.probe() { report.add(updates: updates) }
        return report
    }

    /// The DRM cards (only the named one for `--output drm:/dev/dri/cardN`).
    public static func display(_ output: FrameOutput) -> DoctorDisplaySection {
        switch output {
        case .drm(let device?):
            return DoctorDisplaySection(required: true, cards: DRMProbe.mark([DRMProbe.card(device)]))
        case .drm(nil):
            return DoctorDisplaySection(required: true, cards: DRMProbe.cards())
        default:
            // Frames that go to files or memory need no display.
            return DoctorDisplaySection(required: false, cards: DRMProbe.cards())
        }
    }

    /// The input devices and which carries the exit button.
    public static func input(_ options: DoctorOptions, heldByRunningFrame: Bool) -> DoctorInputSection {
        let policy = options.exitButton
        let devices = InputProbe.devices(policy: policy).map { report in
            DoctorInputDevice(
                path: report.path, name: report.name, opened: report.opened, grabbable: report.grabbed,
                exitKeys: report.exitKeys.map { KeyName.name(for: KeyCode($0)) }, exitReason: report.exitReason,
                error: report.error)
        }
        let required: Bool
        if case .drm = options.output { required = true } else { required = false }
        return DoctorInputSection(
            required: required, exitKeys: policy.keyCodes.map { KeyName.name(for: $0) }, exitDevice: policy.device,
            exitHoldSeconds: Double(policy.hold.components.seconds)
                + Double(policy.hold.components.attoseconds) / 1e18,
            devices: devices, heldByRunningFrame: heldByRunningFrame)
    }

    /// The service: unit file, `systemctl is-enabled`/`is-active` (only when systemd is PID 1),
    /// and the service user's groups.
    public static func service(unit: String) -> DoctorServiceSection {
        let systemdRunning = FileManager.default.fileExists(atPath: "/run/systemd/system")
        let unitFile = [
            "/etc/systemd/system/", "/usr/local/lib/systemd/system/", "/usr/lib/systemd/system/",
            "/lib/systemd/system/",
        ]
        .map { $0 + unit }
        .first { FileManager.default.fileExists(atPath: $0) }
        var enabled: String? = nil
        var active: String? = nil
        if unitFile != nil {
            enabled = systemctl(["is-enabled", unit])
            if systemdRunning { active = systemctl(["is-active", unit]) }
        }
        let (exists, missing) = serviceUser("babyalbum", groups: ["video", "input", "tty"])
        return DoctorServiceSection(
            unit: unit, systemdRunning: systemdRunning, unitFile: unitFile, enabled: enabled, active: active,
            userExists: exists, userMissingGroups: missing, failedUnits: systemdRunning ? failedUnits() : [])
    }

    /// The units that failed in this boot, by name (`systemctl --failed`).
    static func failedUnits() -> [String] {
        guard
            let executable = ["/usr/bin/systemctl", "/bin/systemctl"].first(where: PathAccess.mayExecute),
            let data = programOutput(executable, arguments: ["list-units", "--failed", "--no-legend", "--plain"])
        else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The first line `systemctl` prints, or `nil` when it cannot run.
    static func systemctl(_ arguments: [String]) -> String? {
        guard
            let executable = ["/usr/bin/systemctl", "/bin/systemctl"].first(where: PathAccess.mayExecute),
            let data = programOutput(executable, arguments: arguments)
        else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
        return line?.isEmpty == false ? line : nil
    }

    /// Whether `name` exists and which of `groups` it is not a member of.
    static func serviceUser(_ name: String, groups: [String]) -> (exists: Bool, missing: [String]) {
        guard let member = UserAccounts.groupIDs(ofUser: name) else { return (false, []) }
        let missing = groups.filter { group in
            guard let id = UserAccounts.groupID(ofGroup: group) else { return true }
            return !member.contains(id)
        }
        return (true, missing)
    }
}
