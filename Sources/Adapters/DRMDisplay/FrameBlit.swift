import AlbumDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Copies frames into a mapped scan-out buffer: row by row, honouring the buffer's pitch, and
/// only ever writing (dumb buffers are often write-combined: reading them back is very slow).
public enum FrameBlit {
    /// Writes `frame` (or black when `nil`) into `buffer`, a `screen`-sized XRGB8888 image whose
    /// rows are `pitch` bytes apart. A frame of another size is centred on black. Bytes past
    /// `screen.width * 4` in each row (the pitch padding) are left alone.
    public static func write(_ frame: Frame?, to buffer: UnsafeMutableRawPointer, pitch: Int, screen: FrameSize) {
        precondition(pitch >= screen.width * 4, "pitch shorter than a row")
        let rowBytes = screen.width * 4
        guard let frame else {
            for y in 0..<screen.height { memset(buffer + y * pitch, 0, rowBytes) }
            return
        }
        let place = FramePlacement(frame: frame.size, screen: screen)
        frame.pixels.withUnsafeBytes { source in
            let base = source.baseAddress!
            for y in 0..<screen.height {
                let row = buffer + y * pitch
                let frameY = y - place.destinationY + place.sourceY
                guard y >= place.destinationY, y < place.destinationY + place.height else {
                    memset(row, 0, rowBytes)
                    continue
                }
                if place.destinationX > 0 { memset(row, 0, place.destinationX * 4) }
                memcpy(
                    row + place.destinationX * 4,
                    base + (frameY * frame.size.width + place.sourceX) * 4,
                    place.width * 4)
                let right = place.destinationX + place.width
                if right < screen.width { memset(row + right * 4, 0, (screen.width - right) * 4) }
            }
        }
    }
}
