import AlbumDomain
import CPNGCodec
import CPhotoCodecCore
import LinuxInterfaces
import PhotoCodec

/// Writes frames as 8-bit RGB PNG files with libpng.
public enum PNGEncoder {
    /// Writes `frame` to `path`, created or emptied. `compressionLevel` is zlib's 0 (fastest) to 9
    /// (smallest); `interlaced` writes Adam7.
    public static func write(
        _ frame: Frame, to path: String, compressionLevel: Int = 1, interlaced: Bool = false
    ) throws(PhotoError) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor(opening: path, .writeOnly, options: [.create, .truncate], permissions: 0o666)
        } catch {
            throw PhotoError(kind: .io, reason: "cannot create: \(errnoDescription(error.code))", path: path)
        }
        try write(frame, to: file, compressionLevel: compressionLevel, interlaced: interlaced)
        do {
            try file.close()
        } catch {
            throw PhotoError(kind: .io, reason: "cannot write: \(errnoDescription(error.code))", path: path)
        }
    }

    /// Writes `frame` to the open `file` (from its current position), which the caller closes.
    /// `compressionLevel` is zlib's 0 (fastest) to 9 (smallest); `interlaced` writes Adam7.
    public static func write(
        _ frame: Frame, to file: borrowing FileDescriptor, compressionLevel: Int = 1, interlaced: Bool = false
    ) throws(PhotoError) {
        var message = [CChar](repeating: 0, count: Int(BAPHOTO_ERROR_MESSAGE_SIZE))
        let descriptor = file.rawValue
        let status = frame.pixels.withUnsafeBufferPointer { pixels in
            bapng_write_xrgb(
                descriptor, pixels.baseAddress, UInt32(frame.size.width), UInt32(frame.size.height),
                Int32(compressionLevel), interlaced ? 1 : 0, &message)
        }
        try PhotoError.check(codecStatus: status, message: message, path: file.path)
    }
}
