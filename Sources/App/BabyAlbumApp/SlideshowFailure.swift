/// Why the slideshow stopped with an error.
public enum SlideshowFailure: Error, CustomStringConvertible {
    /// The view failed to draw (a full disk, a screen that refuses frames).
    case viewCannotDraw(any Error)

    public var description: String {
        switch self {
        case .viewCannotDraw(let error): "the frame cannot be drawn: \(error)"
        }
    }
}
