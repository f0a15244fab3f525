/// How a new photo replaces the picture before it on screen.
public enum FrameTransition: Equatable, Sendable {
    /// A crossfade from the picture on screen, which shows the photo `from`, to the new frame in
    /// `duration`, linear per channel, timed by the clock (a slow board drops frames and still
    /// ends on time, on the new frame exactly). The view model holds no pixels of `from`: the
    /// screen fades from what it shows, and a screen that shows something else cuts.
    case fade(from: Photo, duration: Duration)
}
