import AlbumDomain
import LinuxInterfaces

/// A crossfade in progress on the display thread: from the frame on screen to the new one, timed
/// by the clock. Each step blends the two prepared frames (ordinary cached memory) straight into
/// the back buffer and flips it; the flip completes at a vblank, which paces the fade. A step
/// that takes longer than a refresh simply lands on a later vblank: the fade drops frames and
/// still ends on time, on the new frame exactly.
struct Crossfade {
    let from: Frame
    let to: Frame
    let duration: Duration
    private let start: ContinuousClock.Instant
    /// Pictures put on screen so far, the last (the new frame itself) included.
    private(set) var framesPresented = 0

    /// A fade for `viewModel`, when it asks for one and the screen shows the fade's first frame
    /// now (`onScreen`, lit), at the screen's size; otherwise `nil` (the photo is shown at once).
    init?(_ viewModel: FrameViewModel, onScreen: FrameViewModel?, screen: FrameSize) {
        guard case .fade(let fromPhoto, let duration) = viewModel.transition,
            case .photo(_, let to) = viewModel.content, viewModel.displayPower == .on,
            let onScreen, onScreen.displayPower == .on, case .photo(let shownPhoto, let from) = onScreen.content,
            shownPhoto == fromPhoto, from.size == screen, to.size == screen, duration > .zero
        else { return nil }
        self.from = from
        self.to = to
        self.duration = duration
        start = .now
    }

    /// How long the fade has run.
    var elapsed: Duration { start.duration(to: .now) }

    /// Shows the next picture of the fade: the mix for the time now, or once the time is up the
    /// new frame exactly. Returns `true` when that was the last picture.
    mutating func presentNextPicture(on presentation: Presentation) throws(SystemCallFailure) -> Bool {
        let weight = FrameBlend.weight(elapsed: elapsed, of: duration)
        if weight >= FrameBlend.fullWeight {
            try presentation.present(to)
            framesPresented += 1
            return true
        }
        let (from, to) = (from, to)
        try presentation.present { pixels, pitch, _ in
            FrameBlend.write(from: from, to: to, weight: weight, into: pixels, pitch: pitch)
        }
        framesPresented += 1
        return false
    }

    /// One line for the log: pictures presented against the vblanks of `refreshRate` (Hz) in
    /// the fade's real duration.
    func summary(refreshRate: Int) -> String {
        let seconds = Self.seconds(elapsed)
        let vblanks = Int((seconds * Double(refreshRate)).rounded())
        let missed = max(0, vblanks - framesPresented)
        return "fade: \(framesPresented) pictures in \(Self.hundredths(seconds)) s"
            + " (planned \(Self.hundredths(Self.seconds(duration))) s; \(refreshRate) Hz display:"
            + " \(vblanks) vblanks, \(missed) without a new picture)"
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func hundredths(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
