import AlbumDomain

/// Which of a connector's modes BabyAlbum draws in (pure: modes in, a choice out).
///
/// The display's own mode is the one from the kernel command line (`video=`), else the preferred
/// one, else the largest. ``ModeRequest/automatic`` keeps it when it is at most 1920x1200 (or
/// 1200x1920: a portrait panel). A larger one (a 4K television) is replaced by the largest
/// progressive mode within 1920x1200 of the same shape (width over height within 1 %): at least
/// 50 Hz when such a mode is offered; of one size, the own mode's refresh rate first, then the
/// highest. When the display offers no such mode, its own mode is kept: a mode of another shape
/// would be stretched by the display, and the card's memory is sized for 4K anyway (`mode =
/// native`). A mode from the kernel command line is stepped down the same way (the Pi's firmware
/// may write one there from the display's EDID): `mode = native` keeps it.
public struct ModeChoice: Equatable, Sendable {
    /// The index in the modes of the mode to use.
    public var index: Int
    /// The mode to use.
    public var mode: DisplayMode
    /// The display's own mode, when ``ModeRequest/automatic`` took a smaller one instead of it.
    public var insteadOf: DisplayMode?
    /// The display's own mode is larger than ``largestAutomatic`` and kept: it offers no
    /// smaller mode of its shape.
    public var keptLarge: Bool = false

    /// The largest mode ``ModeRequest/automatic`` takes (either way up).
    public static let largestAutomatic = FrameSize(width: 1920, height: 1200)
    /// The least refresh rate taken in place of the display's own mode when one is offered.
    public static let smoothRefreshHz = 50

    /// What the log says about the choice, when it is not simply the display's own mode.
    public var note: String? {
        if let own = insteadOf {
            return "display prefers \(own); using \(mode) (mode = native keeps \(own.width)x\(own.height))"
        }
        if keptLarge {
            return "display prefers \(mode) and offers no mode of its shape within "
                + "\(Self.largestAutomatic): using \(mode.width)x\(mode.height)"
        }
        return nil
    }

    /// The mode to use among `modes` for `requested`; `nil` when none fits (no modes, or no mode
    /// of the requested size).
    public static func choose(from modes: [DisplayMode], requested: ModeRequest) -> ModeChoice? {
        switch requested {
        case .size(let size):
            return ofSize(size, in: modes).map { ModeChoice(index: $0, mode: modes[$0]) }
        case .native:
            return own(in: modes).map { ModeChoice(index: $0, mode: modes[$0]) }
        case .automatic:
            guard let own = own(in: modes) else { return nil }
            let mode = modes[own]
            if fits(mode.size) { return ModeChoice(index: own, mode: mode) }
            guard let smaller = smaller(than: mode, in: modes) else {
                return ModeChoice(index: own, mode: mode, keptLarge: true)
            }
            return ModeChoice(index: smaller, mode: modes[smaller], insteadOf: mode)
        }
    }

    /// Whether `size` is at most ``largestAutomatic``, either way up.
    public static func fits(_ size: FrameSize) -> Bool {
        let (long, short) = (max(size.width, size.height), min(size.width, size.height))
        return long <= largestAutomatic.width && short <= largestAutomatic.height
    }

    /// Whether `a` and `b` have the same shape: width over height within 1 %.
    public static func sameShape(_ a: FrameSize, _ b: FrameSize) -> Bool {
        guard a.width > 0, a.height > 0, b.width > 0, b.height > 0 else { return false }
        let (ratioA, ratioB) = (Double(a.width) / Double(a.height), Double(b.width) / Double(b.height))
        return abs(ratioA - ratioB) <= 0.01 * ratioB
    }

    /// The display's own mode: from the kernel command line, else the preferred one, else the
    /// largest (the first of the largest).
    static func own(in modes: [DisplayMode]) -> Int? {
        if let index = modes.firstIndex(where: \.isUserDefined) { return index }
        if let index = modes.firstIndex(where: \.isPreferred) { return index }
        var largest: Int?
        for index in modes.indices {
            if let current = largest, modes[current].size.pixelCount >= modes[index].size.pixelCount { continue }
            largest = index
        }
        return largest
    }

    /// The first mode of `size`: the preferred one, then progressive, then the highest refresh.
    static func ofSize(_ size: FrameSize, in modes: [DisplayMode]) -> Int? {
        best(modes.indices.filter { modes[$0].size == size }, in: modes) { mode, other in
            if mode.isPreferred != other.isPreferred { return mode.isPreferred }
            if mode.isInterlaced != other.isInterlaced { return !mode.isInterlaced }
            return mode.refreshHz > other.refreshHz
        }
    }

    /// The mode taken in place of `own`, too large: see the type's description.
    static func smaller(than own: DisplayMode, in modes: [DisplayMode]) -> Int? {
        let candidates = modes.indices.filter {
            let mode = modes[$0]
            return !mode.isInterlaced && fits(mode.size) && sameShape(mode.size, own.size)
        }
        let smooth = candidates.filter { modes[$0].refreshHz >= smoothRefreshHz }
        return best(smooth.isEmpty ? candidates : smooth, in: modes) { mode, other in
            if mode.size.pixelCount != other.size.pixelCount { return mode.size.pixelCount > other.size.pixelCount }
            let (matches, otherMatches) = (mode.refreshHz == own.refreshHz, other.refreshHz == own.refreshHz)
            if matches != otherMatches { return matches }
            return mode.refreshHz > other.refreshHz
        }
    }

    /// The first of `indices` that no later one beats (`isBetter(mode, than: other)`).
    private static func best(
        _ indices: [Int], in modes: [DisplayMode], _ isBetter: (DisplayMode, DisplayMode) -> Bool
    ) -> Int? {
        var best: Int?
        for index in indices {
            guard let current = best else {
                best = index
                continue
            }
            if isBetter(modes[index], modes[current]) { best = index }
        }
        return best
    }
}
