import AlbumDomain
import DRMDisplay

/// The display part of a ``DoctorReport``.
public struct DoctorDisplaySection: Codable, Sendable, Equatable {
    /// Whether the frame draws on a screen (`--output drm`); `false` for `--output png:`.
    public var required: Bool
    /// Every `/dev/dri/card*`, as ``DRMProbe`` saw it.
    public var cards: [DRMCardReport]
    /// The card, connector and mode BabyAlbum would use, like `/dev/dri/card0 HDMI-A-1 1920x1080@60`.
    public var chosen: String?
    /// Why no display can be used, if none can.
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]
    /// How photos are turned for the screen, and why (`--rotate`, or the panel orientation).
    public var rotation: String?

    /// Derives ``chosen`` and ``problem`` from `cards`.
    public init(required: Bool, cards: [DRMCardReport]) {
        self.required = required
        self.cards = cards
        self.warnings = []
        if let card = cards.first(where: \.isChosen), let connector = card.connectors.first(where: \.isChosen) {
            chosen = "\(card.path) \(connector.name)" + (connector.chosenMode.map { " \($0)" } ?? "")
            problem = nil
        } else {
            chosen = nil
            problem = required ? "display: \(DRMProbe.failure(cards).description)" : nil
        }
    }

    /// Says how photos would be turned: as `setting` fixes it, or for `auto` from the chosen
    /// connector's panel orientation.
    public mutating func describeRotation(_ setting: RotationSetting) {
        guard required else { return }
        switch setting {
        case .fixed(let rotation):
            self.rotation = "for a screen mounted \(rotation) (--rotate)"
        case .automatic:
            let chosen = cards.first(where: \.isChosen)?.connectors.first(where: \.isChosen)
            if let orientation = chosen?.panelOrientation, let rotation = ScreenRotation(panelOrientation: orientation)
            {
                self.rotation =
                    "for a screen mounted \(rotation) (--rotate auto: the panel orientation is \(orientation))"
            } else {
                self.rotation = "upright, 0° (--rotate auto: the display reports no panel orientation)"
            }
        }
    }
}
