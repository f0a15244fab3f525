/// One input device in a ``DoctorInputSection``.
public struct DoctorInputDevice: Codable, Sendable, Equatable {
    /// The event node, like `/dev/input/event2`.
    public var path: String
    /// The device's name, when it could be opened.
    public var name: String?
    /// Whether it could be opened.
    public var opened: Bool
    /// Whether BabyAlbum could grab it (doctor grabs and releases it at once).
    public var grabbable: Bool
    /// The exit keys that count from it (names like `KEY_POWER`); empty if it may not end the slideshow.
    public var exitKeys: [String]
    /// Why it may or may not end the slideshow (`a keyboard (it has letter keys)…`).
    public var exitReason: String?
    /// What went wrong, if anything.
    public var error: String?

    /// Creates an entry.
    public init(
        path: String, name: String?, opened: Bool, grabbable: Bool, exitKeys: [String], exitReason: String? = nil,
        error: String?
    ) {
        self.path = path
        self.name = name
        self.opened = opened
        self.grabbable = grabbable
        self.exitKeys = exitKeys
        self.exitReason = exitReason
        self.error = error
    }
}
