import AlbumDomain
import PhotoCodec

/// Decodes PNG files with libpng into frames of XRGB8888 pixels, through the codec layer's one
/// entry point (``PhotoDecoder``'s), with the file taken as a PNG whatever its bytes (so a file
/// that is not one fails as libpng says).
///
/// Every colour type, bit depth, palette, tRNS and Adam7 is decoded to 8 bits a channel,
/// transparency composited over black, gAMA ignored. Non-interlaced photos are streamed row by
/// row straight into the target size, and Adam7 passes are added straight into per-pixel sums of
/// the target, so the full-size photo never exists in memory.
public enum PNGDecoder {
    /// Reads the header of `path`, checking it against `limits`.
    public static func header(of path: String, limits: PhotoLimits = PhotoLimits()) throws(PhotoError) -> PhotoHeader {
        let file = try PhotoFile(path: path)
        return try PhotoDecoder.header(of: file, as: .png, path: path, limits: limits.codecLimits())
    }

    /// Decodes `path` and scales it to `size` with `scale`.
    /// - Parameters:
    ///   - wholeImage: Send every pixel through the order-free path that Adam7 photos take
    ///     (the frame agrees within one level; used to check the two paths against each other).
    ///   - rotation: How the screen is mounted; `size` is the panel's own, and the photo is
    ///     drawn turned so that it is upright on the mounted screen.
    public static func decode(
        _ path: String, to size: FrameSize, scale: ScaleMode, limits: PhotoLimits = PhotoLimits(),
        wholeImage: Bool = false,
        rotation: ScreenRotation = .none
    ) throws(PhotoError) -> Frame {
        let file = try PhotoFile(path: path)
        let target = CodecTarget(size: size, scale: scale, rotation: rotation, wholeImage: wholeImage)
        return try PhotoDecoder.decode(file, as: .png, path: path, to: target, limits: limits.codecLimits()).frame
    }

    /// Decodes `path` at its own size.
    public static func decode(_ path: String, limits: PhotoLimits = PhotoLimits()) throws(PhotoError) -> Frame {
        let file = try PhotoFile(path: path)
        let cLimits = limits.codecLimits()
        let header = try PhotoDecoder.header(of: file, as: .png, path: path, limits: cLimits)
        let target = CodecTarget(size: FrameSize(width: header.width, height: header.height), scale: .fit)
        return try PhotoDecoder.decode(file, as: .png, path: path, to: target, limits: cLimits).frame
    }
}
