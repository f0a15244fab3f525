/// Something that happened, sent to ``PublishPhoto``. Actions are named for the event, not the wish.
public enum AlbumAction: Equatable, Sendable {
    /// The repository published a new photo list state.
    case photoListChanged(PhotoListState)
    /// The slideshow interval ran out.
    case intervalElapsed
    /// Someone asked for the display to be lit or blanked (for example, quiet hours began).
    case displayPowerRequested(DisplayPower)
    /// The photo being prepared in the background for the next tick could not be read, so
    /// another one can be prepared before the tick instead of at it.
    case nextPhotoFailed(Photo, reason: String)
}

/// The single action the input layer sends upward: the hardware exit button was held.
public struct ExitRequest: Equatable, Sendable, CustomStringConvertible {
    /// The input device that carried the button (its name or path).
    public let device: String
    /// The key that was held (for example, `KEY_POWER`).
    public let key: String

    /// Creates an exit request.
    public init(device: String, key: String) {
        self.device = device
        self.key = key
    }

    public var description: String { "\(key) on \(device)" }
}
