import AlbumDomain
import CFrameBlend

/// The crossfade's frames: a linear mix of two frames, written row by row into a scan-out
/// buffer (write only, in order: dumb buffers are often write-combined).
public enum FrameBlend {
    /// The weight that gives the new frame exactly.
    public static let fullWeight = Int(FRAME_BLEND_WEIGHT_MAX)

    /// The weight `elapsed` into a fade of `duration`: from 0 (the old frame) to
    /// ``fullWeight`` (the new frame, once the fade is over). Timed by the clock, not by a
    /// frame count, so a slow board drops frames and still ends on time.
    public static func weight(elapsed: Duration, of duration: Duration) -> Int {
        guard duration > .zero, elapsed < duration else { return fullWeight }
        guard elapsed > .zero else { return 0 }
        return Int((Double(fullWeight) * (elapsed / duration)).rounded(.down))
    }

    /// Writes the mix of `from` and `to` at `weight` (0 … ``fullWeight``) into `buffer`, a
    /// screen of `from`'s size whose rows are `pitch` bytes apart. Both frames must have the
    /// same size.
    public static func write(
        from: Frame, to: Frame, weight: Int, into buffer: UnsafeMutableRawPointer, pitch: Int
    ) {
        precondition(from.size == to.size, "a fade needs two frames of the same size")
        precondition(pitch >= from.size.width * 4, "pitch shorter than a row")
        let width = from.size.width
        from.pixels.withUnsafeBufferPointer { old in
            to.pixels.withUnsafeBufferPointer { new in
                for y in 0..<from.size.height {
                    let row = (buffer + y * pitch).assumingMemoryBound(to: UInt32.self)
                    frame_blend_row(
                        row, old.baseAddress! + y * width, new.baseAddress! + y * width, width, UInt32(weight))
                }
            }
        }
    }
}
