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
