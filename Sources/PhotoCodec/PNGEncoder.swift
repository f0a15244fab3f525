import AlbumDomain
import CPNGCodec
import CPhotoCodecCore

/// Writes frames as 8-bit RGB PNG files with libpng.
public enum PNGEncoder {
    /// Writes `frame` to `path`. `compressionLevel` is zlib's 0 (fastest) to 9 (smallest);
    /// `interlaced` writes Adam7.
    public static func write(
        _ frame: Frame, to path: String, compressionLevel: Int = 1, interlaced: Bool = false
    ) throws(PhotoError) {
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let status = frame.pixels.withUnsafeBufferPointer { pixels in
            bapng_write_xrgb(
                path, pixels.baseAddress, UInt32(frame.size.width), UInt32(frame.size.height),
                Int32(compressionLevel), interlaced ? 1 : 0, &message)
        }
        try PhotoError.check(codecStatus: status, message: message, path: path)
    }
}
