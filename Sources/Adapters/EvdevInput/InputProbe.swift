/// One input device as seen by ``InputProbe``, for `babyalbum doctor`.
public struct InputDeviceReport: Sendable, Equatable, CustomStringConvertible {
    /// The event node (`/dev/input/event3`).
    public var path: String
    /// The device name, if it could be opened.
    public var name: String?
    /// Whether it could be opened and read by libevdev.
    public var opened: Bool
    /// Whether it could be grabbed (it was released again at once).
    public var grabbed: Bool
    /// The exit keys that count from it (empty: it may not end the slideshow).
    public var exitKeys: [UInt16]
    /// Why it may or may not end the slideshow (`a keyboard (it has letter keys)…`); `nil` if it
    /// could not be opened.
    public var exitReason: String?
    /// What went wrong (permission: names the `input` group; busy: another program grabbed it).
    public var error: String?

    /// Whether this device carries the exit button.
    public var carriesExitKey: Bool { !exitKeys.isEmpty }

    public var description: String {
        var text = "\(path): \(name.map { "'\($0)'" } ?? "?")"
        text += grabbed ? ", grabbable" : opened ? ", NOT grabbable" : ", cannot open"
        if carriesExitKey {
            text += ", exit button " + exitKeys.map { KeyName.name(for: KeyCode($0)) }.joined(separator: ", ")
        }
        if let exitReason { text += " (\(exitReason))" }
        if let error { text += ": \(error)" }
        return text
    }
}

/// The input-device inventory for `babyalbum doctor`.
public enum InputProbe {
    /// Opens every `/dev/input/event*` device, grabs and at once releases it, and says which ones may
    /// end the slideshow under `policy` and which may not, and why (``ExitDeviceChoice``).
    /// - Returns: One report per device in numeric order; a single report for `/dev/input` if it
    ///   cannot be listed.
    public static func devices(policy: ExitButtonPolicy) -> [InputDeviceReport] {
        devices(policy: policy, directory: "/dev/input")
    }

    static func devices(policy: ExitButtonPolicy, directory: String) -> [InputDeviceReport] {
        let names: [String]
        do throws(InputError) {
            names = try DeviceDirectoryWatcher.eventNodes(in: directory)
        } catch {
            return [
                InputDeviceReport(
                    path: directory, name: nil, opened: false, grabbed: false, exitKeys: [], exitReason: nil,
                    error: error.description)
            ]
        }
        var reports: [InputDeviceReport] = []
        var identities: [InputDeviceIdentity?] = []
        for name in names {
            let (report, identity) = probe(path: directory + "/" + name)
            reports.append(report)
            identities.append(identity)
        }
        let present = identities.compactMap { $0 }
        for (index, identity) in identities.enumerated() {
            guard let identity else { continue }
            let choice = ExitDeviceChoice.decide(for: identity, among: present, policy: policy)
            reports[index].exitKeys = choice.exitKeys.map(\.rawValue)
            reports[index].exitReason = choice.reason
        }
        return reports
    }

    /// Opens one device, grabs and releases it; its identity if it could be opened.
    private static func probe(path: String) -> (InputDeviceReport, InputDeviceIdentity?) {
        var report = InputDeviceReport(
            path: path, name: nil, opened: false, grabbed: false, exitKeys: [], exitReason: nil, error: nil)
        var identity: InputDeviceIdentity?
        do throws(InputError) {
            let device = try InputDevice(path: path)
            report.opened = true
            report.name = device.name
            identity = device.identity
            try device.grab()
            report.grabbed = true
            device.ungrab()
        } catch {
            report.error = error.description
        }
        return (report, identity)
    }
}
