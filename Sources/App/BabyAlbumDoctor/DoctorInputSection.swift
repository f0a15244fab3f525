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
