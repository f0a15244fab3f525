/// How a photo is fitted to the screen.
public enum ScaleMode: String, Sendable, CaseIterable {
    /// Cover the whole screen, centred, cropping what sticks out (a photo frame's default).
    case fill
    /// Show the whole photo, centred, with black bars.
    case fit
    /// Fill, unless that would crop more than a fifth of the photo (a portrait photo on a
    /// landscape screen, or the reverse): then the whole photo, over a blurred, darkened copy of
    /// itself that fills the screen. Neither faces cut off nor bare bars.
    case auto
}
