/// Which input devices `--exit-device` names: the devices whose name or `phys` contains a text
/// (`gpio-keys/input0`), or the device behind a path such as a `/dev/input/by-path/…` link. Without
/// `--exit-device` it names none, and ``ExitDeviceChoice`` lets only buttons carry the exit key.
///
/// Pure: resolving a path's symbolic links is injected, so the matching is testable without devices.
public struct ExitDeviceFilter: Sendable, Equatable {
    /// How the filter matches.
    public enum Criterion: Sendable, Equatable {
        /// No `--exit-device`: the default rule decides (buttons yes, keyboards never).
        case buttonsOnly
        /// Devices whose name or `phys` contains this text, ignoring case.
        case nameOrPhysContains(String)
        /// The device whose event node this path resolves to (`/dev/input/event3`, a `by-path` link…).
        case path(String)
    }

    /// How the filter matches.
    public let criterion: Criterion

    /// Creates the filter of an `--exit-device` value: text starting with `/` is a path, anything
    /// else a part of the device's name or `phys`; `nil` or empty means no `--exit-device`.
    public init(_ spec: String?) {
        guard let spec, !spec.isEmpty else {
            criterion = .buttonsOnly
            return
        }
        criterion = spec.hasPrefix("/") ? .path(spec) : .nameOrPhysContains(spec)
    }

    /// Whether `--exit-device` names this device (always `false` without `--exit-device`).
    /// - Parameters:
    ///   - device: The device; its ``InputDeviceIdentity/path`` is its event node.
    ///   - resolve: Resolves symbolic links (`realpath`); `nil` if the path does not exist.
    public func names(
        _ device: InputDeviceIdentity, resolve: (String) -> String? = ExitDeviceFilter.resolvedPath
    ) -> Bool {
        switch criterion {
        case .buttonsOnly:
            return false
        case .nameOrPhysContains(let text):
            let text = text.lowercased()
            return device.name.lowercased().contains(text) || device.phys.lowercased().contains(text)
        case .path(let spec):
            guard let target = resolve(spec) else { return false }
            return target == device.path || target == resolve(device.path)
        }
    }
}
