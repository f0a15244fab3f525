/// One connector (an HDMI, DSI, VGA... output) of a card.
public struct DRMConnectorReport: Codable, Sendable, Equatable {
    /// The KMS object id.
    public var id: UInt32
    /// Like `HDMI-A-1`.
    public var name: String
    /// Whether a display is plugged in (and on).
    public var isConnected: Bool
    /// The modes it offers.
    public var modes: [DisplayMode]
    /// The mode BabyAlbum would pick without `--mode` (``ModeRequest/automatic``).
    public var chosenMode: DisplayMode?
    /// Whether a CRTC can drive it.
    public var hasCRTC: Bool
    /// Whether BabyAlbum would draw on this connector.
    public var isChosen: Bool
    /// The kernel's `panel orientation` for a panel mounted turned (`Right Side Up`, …).
    public var panelOrientation: String?

    /// Creates a report.
    public init(
        id: UInt32, name: String, isConnected: Bool, modes: [DisplayMode], chosenMode: DisplayMode? = nil,
        hasCRTC: Bool, isChosen: Bool = false, panelOrientation: String? = nil
    ) {
        self.id = id
        self.name = name
        self.isConnected = isConnected
        self.modes = modes
        self.chosenMode = chosenMode
        self.hasCRTC = hasCRTC
        self.isChosen = isChosen
        self.panelOrientation = panelOrientation
    }

    /// Whether BabyAlbum could draw on it.
    public var isUsable: Bool { isConnected && !modes.isEmpty && hasCRTC }
}
