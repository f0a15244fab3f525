/// What one `/dev/dri/card*` node offers (for `babyalbum doctor`).
public struct DRMCardReport: Codable, Sendable, Equatable {
    /// Like `/dev/dri/card0`.
    public var path: String
    /// The kernel driver (`bochs-drm`, `vc4`, `v3d`...), when the node could be opened.
    public var driver: String?
    /// Whether the card has display outputs (CRTCs, encoders and connectors); render-only
    /// nodes such as the Raspberry Pi's `v3d` have none.
    public var hasKMS: Bool
    /// Why the node could not be opened or queried, if it could not.
    public var error: String?
    /// The `errno` of a failed `open`, if any (13 = EACCES: not in the `video` group).
    public var openErrno: Int32?
    /// Its connectors.
    public var connectors: [DRMConnectorReport]
    /// Whether BabyAlbum would use this card with `--output drm`.
    public var isChosen: Bool

    /// Creates a report.
    public init(
        path: String, driver: String? = nil, hasKMS: Bool, error: String? = nil, openErrno: Int32? = nil,
        connectors: [DRMConnectorReport] = [], isChosen: Bool = false
    ) {
        self.path = path
        self.driver = driver
        self.hasKMS = hasKMS
        self.error = error
        self.openErrno = openErrno
        self.connectors = connectors
        self.isChosen = isChosen
    }
}
