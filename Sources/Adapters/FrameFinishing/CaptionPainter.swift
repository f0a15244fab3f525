import AlbumDomain
import CCaption
import PhotoCodec
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Draws each photo's caption (the child's age, the day it was taken) into its frame, before
/// the frame is shown, so that the caption fades in and out with its photo.
public struct CaptionPainter: Sendable {
    /// What the captions say.
    public let policy: CaptionPolicy
    /// The font.
    public let font: CaptionFont
    /// Where the one debug line about a photo's unusable date goes.
    public let debug: @Sendable (String) -> Void

    /// The text's height as a share of the screen's (as the viewer sees it).
    public static let heightShare = 0.04

    /// Creates a painter.
    public init(policy: CaptionPolicy, font: CaptionFont, debug: @escaping @Sendable (String) -> Void = { _ in }) {
        self.policy = policy
        self.font = font
        self.debug = debug
    }

    /// The caption of a photo with `metadata`; `nil` for none (no usable date: a debug line
    /// says why when the date was there but unusable).
    public func text(for metadata: PhotoMetadata, name: String) -> String? {
        switch metadata.captureDate {
        case .found(let date): return policy.text(takenOn: date.date)
        case .absent: return nil
        case .unusable(let why):
            debug("\(name): no caption, its EXIF date is unusable (\(why))")
            return nil
        }
    }

    /// `frame` (as the panel holds it) with the caption of a photo with `metadata` drawn in the
    /// bottom-right corner of the mounted screen; the frame itself when there is none.
    /// A frame passed as its only holder is drawn on in place (no copy of its pixels).
    public func paint(
        _ frame: consuming Frame, metadata: PhotoMetadata, rotation: ScreenRotation, name: String
    ) -> Frame {
        guard let text = text(for: metadata, name: name) else { return frame }
        let uprightHeight = rotation.swapsAxes ? frame.size.width : frame.size.height
        let pixelSize = max(12, Int((Double(uprightHeight) * Self.heightShare).rounded()))
        let size = frame.size
        var failure: String?
        frame.drawOnPixels { pixels in
            failure = font.draw(text, into: &pixels, size: size, rotation: rotation, pixelSize: pixelSize)
        }
        if let failure { debug("\(name): no caption: \(failure)") }
        return frame
    }
}
