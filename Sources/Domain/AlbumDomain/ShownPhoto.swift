/// A photo on screen together with its prepared frame.
public struct ShownPhoto: Equatable, Sendable {
    /// The photo.
    public let photo: Photo
    /// The photo scaled to the screen.
    public let frame: Frame

    /// Creates a shown photo.
    public init(photo: Photo, frame: Frame) {
        self.photo = photo
        self.frame = frame
    }
}
