/// What the card's last update did, told once on screen (issue 64): the card installs signed
/// bundles beside the slideshow and reboots into them, and a parent who copied a bundle onto a
/// stick sees here what came of it.
public enum UpdateOutcome: Equatable, Sendable {
    /// A bundle was installed, and the system running now is its `version`.
    case installed(version: String)
    /// A bundle was refused, nothing written; `reason` says why ("not signed for this frame").
    case refused(reason: String)
    /// The updated system never showed a photo, and the card went back to `version`.
    case rolledBack(version: String)

    /// The words on screen.
    public var text: String {
        switch self {
        case .installed(let version): "Updated to \(version)"
        case .refused(let reason): "Update refused: \(reason)"
        case .rolledBack(let version): "The update did not start: back to \(version)"
        }
    }
}
