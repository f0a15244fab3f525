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
