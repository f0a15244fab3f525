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
