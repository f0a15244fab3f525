import ArgumentParser

/// `--transition`: how one photo gives way to the next.
enum TransitionOption: String, ExpressibleByArgument, CaseIterable {
    /// The new photo fades in over the old one (`--fade` seconds).
    case fade
    /// The new photo replaces the old one at once.
    case none
}

/// The range `--fade` accepts, in seconds.
let fadeSecondsRange = 0.3...5.0
