/// Which input devices may carry the exit button (`--exit-device`): any device, the devices whose name
/// contains a text, or the device behind a path such as `/dev/input/by-path/platform-gpio-keys-event`.
///
/// Pure: resolving a path's symbolic links is injected, so the matching is testable without devices.
public struct ExitDeviceFilter: Sendable, Equatable {
    /// How the filter matches.
    public enum Criterion: Sendable, Equatable {
        /// Every device may carry the button.
        case any
        /// Devices whose name contains this text, ignoring case.
        case nameContains(String)
        /// The device whose event node this path resolves to (`/dev/input/event3`, a `by-id` link…).
        case path(String)
    }

    /// How the filter matches.
    public let criterion: Criterion

    /// Creates the filter of an `--exit-device` value: text starting with `/` is a path, anything
    /// else a part of the device name; `nil` or empty means any device.
    public init(_ spec: String?) {
        guard let spec, !spec.isEmpty else {
            criterion = .any
            return
        }
        criterion = spec.hasPrefix("/") ? .path(spec) : .nameContains(spec)
    }

    /// Whether the device at `path` named `name` may carry the exit button.
    /// - Parameters:
    ///   - name: The device name (`libevdev_get_name`).
    ///   - path: The device's event node (`/dev/input/event3`).
    ///   - resolve: Resolves symbolic links (`realpath`); `nil` if the path does not exist.
    public func matches(
        name: String, path: String, resolve: (String) -> String? = ExitDeviceFilter.resolvedPath
    ) -> Bool {
        switch criterion {
        case .any:
            return true
        case .nameContains(let text):
            return name.lowercased().contains(text.lowercased())
        case .path(let spec):
            guard let target = resolve(spec) else { return false }
            return target == path || target == resolve(path)
        }
    }
}
