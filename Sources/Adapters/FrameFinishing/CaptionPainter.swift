import AlbumDomain
import CCaption
import PhotoCodec
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An open font for captions (FreeType), used by one drawing at a time.
public final class CaptionFont: @unchecked Sendable {
    private let font: OpaquePointer
    private let lock = Mutex(())

    /// DejaVu Sans, from Debian's `fonts-dejavu-core`.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Opens the font at `path`; throws the reason when it cannot be read.
    public init(path: String = CaptionFont.defaultPath) throws(CaptionFontError) {
        var message = [CChar](repeating: 0, count: Int(BACAPTION_ERROR_MESSAGE_SIZE))
        guard let font = bacaption_font_open(path, &message) else {
            throw CaptionFontError(reason: String(cString: message))
        }
        self.font = font
    }

    deinit { bacaption_font_close(font) }

    /// Where a line goes, on the screen as the viewer sees it.
    public enum Corner: Sendable {
        /// A photo's caption.
        case bottomRight
        /// A notice of the frame's, clear of the caption.
        case topLeft
    }

    /// Draws `text` into `pixels` (the panel's `size`), upright for a screen mounted with
    /// `rotation`, `pixelSize` pixels high, in `corner`. Returns the reason when it could not.
    func draw(
        _ text: String, into pixels: inout [UInt32], size: FrameSize, rotation: ScreenRotation, pixelSize: Int,
        corner: Corner = .bottomRight
    ) -> String? {
        var message = [CChar](repeating: 0, count: Int(BACAPTION_ERROR_MESSAGE_SIZE))
        let status = lock.withLock { _ in
            pixels.withUnsafeMutableBufferPointer { buffer in
                var target = bacaption_target(
                    pixels: buffer.baseAddress, width: UInt32(size.width), height: UInt32(size.height),
                    quarter_turns: Int32(rotation.quarterTurns), pixel_size: UInt32(pixelSize),
                    corner: corner == .topLeft ? BACAPTION_TOP_LEFT : BACAPTION_BOTTOM_RIGHT)
                return bacaption_draw(font, text, &target, &message)
            }
        }
        return status == 0 ? nil : String(cString: message)
    }
}

/// Why the caption font cannot be used.
public struct CaptionFontError: Error, CustomStringConvertible {
    /// FreeType's reason, with the path.
    public let reason: String
    public var description: String { reason }
}

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
