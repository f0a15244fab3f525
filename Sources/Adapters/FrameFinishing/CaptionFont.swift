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
