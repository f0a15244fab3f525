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
