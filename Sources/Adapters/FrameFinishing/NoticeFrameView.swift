import AlbumDomain
import PhotoCodec
import Synchronization

/// A view over another that draws the view model's notice (``FrameViewModel/notice``, "Clock
/// not set: …"), or else its hint's words ("No photos yet: …"), over the picture, small, in the top-left corner of the mounted screen, with the
/// captions' font and band; a black or empty screen becomes a black picture with the line. The
/// view beneath (the screen, the PNG files) draws the result like any picture. Without a notice
/// the view model passes through untouched.
public final class NoticeFrameView: FrameView {
    private let inner: any FrameView
    private let font: CaptionFont
    private let size: FrameSize
    private let rotation: ScreenRotation
    private let failure: @Sendable (String) -> Void
    /// The words of each hint (``FrameViewModel/hint``), drawn when there is no notice.
    private let hints: [FrameHint: String]
    /// The last picture drawn on, its notice and the result: the same state drawn again gives
    /// the same frame (a screen then has nothing new to show).
    private let last = Mutex<Painted?>(nil)

    /// The text's height as a share of the screen's (as the viewer sees it): smaller than a caption.
    public static let heightShare = 0.03

    /// Creates the view over `inner`, whose pictures are `size` (the panel's) on a screen mounted
    /// with `rotation`; `failure` hears why a line could not be drawn.
    public init(
        over inner: any FrameView, font: CaptionFont, size: FrameSize, rotation: ScreenRotation,
        hints: [FrameHint: String] = [:], failure: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.hints = hints
        self.inner = inner
        self.font = font
        self.size = size
        self.rotation = rotation
        self.failure = failure
    }

    public func render(_ viewModel: FrameViewModel) async throws {
        try await inner.render(withNotice(viewModel))
    }

    /// `viewModel` with its notice drawn into its picture.
    func withNotice(_ viewModel: FrameViewModel) -> FrameViewModel {
        guard let text = viewModel.notice ?? viewModel.hint.flatMap({ hints[$0] }), viewModel.displayPower == .on
        else {
            last.withLock { $0 = nil }  // the notice is gone: its frames are freed
            return viewModel
        }
        var drawn = viewModel
        switch viewModel.content {
        case .photo(let photo, let frame):
            drawn.content = .photo(photo, frame: painted(frame, text: text))
        case .picture(let frame):
            drawn.content = .picture(painted(frame, text: text))
        case .waiting, .black:
            drawn.content = .picture(painted(nil, text: text))
            drawn.transition = nil
        case .ended:
            return viewModel
        }
        return drawn
    }

    /// `source` (black when `nil`) with `text` drawn on a copy; the same frame as last time when
    /// neither changed.
    private func painted(_ source: Frame?, text: String) -> Frame {
        if let last = last.withLock({ $0 }), last.text == text, source == nil ? last.isBlack : last.source == source {
            return last.painted
        }
        let base = source ?? .black(size)
        var frame = Frame(size: base.size, pixels: base.pixels)
        let uprightHeight = rotation.swapsAxes ? frame.size.width : frame.size.height
        let pixelSize = max(12, Int((Double(uprightHeight) * Self.heightShare).rounded()))
        let (size, rotation, font) = (frame.size, rotation, font)
        var problem: String?
        frame.drawOnPixels { pixels in
            problem = font.draw(
                text, into: &pixels, size: size, rotation: rotation, pixelSize: pixelSize, corner: .topLeft)
        }
        if let problem { failure("the notice \"\(text)\" is not drawn: \(problem)") }
        last.withLock { $0 = Painted(source: base, isBlack: source == nil, text: text, painted: frame) }
        return frame
    }
}

/// A picture with a notice drawn on it, and what it was drawn from.
private struct Painted {
    let source: Frame
    let isBlack: Bool
    let text: String
    let painted: Frame
}
