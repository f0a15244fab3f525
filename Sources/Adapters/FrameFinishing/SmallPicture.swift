import AlbumDomain
import PhotoCodec

/// A small picture: 8-bit channels in `UInt32`s (`0x00RRGGBB`), rows top to bottom.
struct SmallPicture {
    var width: Int
    var height: Int
    var pixels: [UInt32]

    /// The pixel at screen position (x, y) of a `screen`-sized picture this one stands for,
    /// sampled bilinearly.
    func sample(x: Int, y: Int, in screen: FrameSize) -> UInt32 {
        let fx = (Double(x) + 0.5) * Double(width) / Double(screen.width) - 0.5
        let fy = (Double(y) + 0.5) * Double(height) / Double(screen.height) - 0.5
        let x0 = min(max(Int(fx.rounded(.down)), 0), width - 1)
        let y0 = min(max(Int(fy.rounded(.down)), 0), height - 1)
        let x1 = min(x0 + 1, width - 1)
        let y1 = min(y0 + 1, height - 1)
        let wx = min(max(fx - Double(x0), 0), 1)
        let wy = min(max(fy - Double(y0), 0), 1)
        var result: UInt32 = 0
        for shift: UInt32 in [0, 8, 16] {
            func channel(_ px: Int, _ py: Int) -> Double { Double(pixels[py * width + px] >> shift & 0xFF) }
            let top = channel(x0, y0) * (1 - wx) + channel(x1, y0) * wx
            let bottom = channel(x0, y1) * (1 - wx) + channel(x1, y1) * wx
            result |= UInt32((top * (1 - wy) + bottom * wy).rounded()) << shift
        }
        return result
    }
}
