/// A photo fading in over the photo before it: a single gradual change, linear per channel.
///
/// It names the photo it fades from but holds none of its pixels: the screen fades from the
/// picture it shows, so the frame faded from is freed as soon as the screen has let go of it
/// (one full frame less, from the end of the fade to the next photo).
public struct Fade: Equatable, Sendable {
    /// The photo it fades from (the one on screen before).
    public let from: Photo
    /// How long the fade takes.
    public let duration: Duration

    /// Creates a fade.
    public init(from: Photo, duration: Duration) {
        self.from = from
        self.duration = duration
    }
}
