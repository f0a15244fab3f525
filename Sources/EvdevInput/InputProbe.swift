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
    /// The exit keys it can send, if `--exit-device` allows it to carry the button.
    public var exitKeys: [UInt16]
    /// What went wrong (permission: names the `input` group; busy: another program grabbed it).
    public var error: String?

    /// Whether this device carries the exit button.
    public var carriesExitKey: Bool { !exitKeys.isEmpty }

    public var description: String {
        var text = "\(path): \(name.map { "'\($0)'" } ?? "?")"
        text += grabbed ? ", grabbable" : opened ? ", NOT grabbable" : ", cannot open"
        if carriesExitKey { text += ", exit button " + exitKeys.map { KeyName.name(for: $0) }.joined(separator: ", ") }
        if let error { text += ": \(error)" }
        return text
    }
}

/// The input-device inventory for `babyalbum doctor`.
public enum InputProbe {
    /// Opens every `/dev/input/event*` device, grabs and at once releases it, and says which ones carry
    /// the exit button of `policy`.
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
                    path: directory, name: nil, opened: false, grabbed: false, exitKeys: [],
                    error: error.description)
            ]
        }
        let filter = ExitDeviceFilter(policy.device)
        return names.map { name in
            let path = directory + "/" + name
            var report = InputDeviceReport(
                path: path, name: nil, opened: false, grabbed: false, exitKeys: [], error: nil)
            do throws(InputError) {
                let device = try InputDevice(path: path)
                report.opened = true
                report.name = device.name
                if filter.matches(name: device.name, path: path) {
                    report.exitKeys = device.supportedKeys(among: policy.keyCodes)
                }
                try device.grab()
                report.grabbed = true
                device.ungrab()
            } catch {
                report.error = error.description
            }
            return report
        }
    }
}
