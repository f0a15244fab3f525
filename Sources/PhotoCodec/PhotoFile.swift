import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A photo file opened so that it can never block the decoder: `O_NONBLOCK | O_CLOEXEC`, then
/// `fstat` on the opened descriptor, refusing anything that is not a regular file (a FIFO or a
/// device renamed over a photo between the scan and the open is refused at once).
///
/// The one owner of its descriptor, closed when the value ends.
public struct PhotoFile: ~Copyable {
    /// The open descriptor (read only, positioned anywhere).
    public let descriptor: Int32
    /// The file's size in bytes when it was opened.
    public let size: Int64

    /// Opens `path` (a file name as bytes, without a terminating zero).
    public init(pathBytes: some Collection<UInt8>, displayPath: String) throws(PhotoError) {
        var cPath = Array(pathBytes)
        guard !cPath.contains(0) else {
            throw PhotoError(kind: .io, reason: "cannot open: the name contains a zero byte", path: displayPath)
        }
        cPath.append(0)
        let opened = cPath.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            }
        }
        guard opened >= 0 else {
            throw PhotoError(kind: .io, reason: "cannot open: \(lastErrnoDescription())", path: displayPath)
        }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let reason = "cannot read: \(lastErrnoDescription())"
            close(opened)
            throw PhotoError(kind: .io, reason: reason, path: displayPath)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw PhotoError(
                kind: .notRegularFile, reason: "not a regular file (\(Self.typeName(status.st_mode)))",
                path: displayPath)
        }
        descriptor = opened
        size = Int64(status.st_size)
    }

    /// Opens `path`.
    public init(path: String) throws(PhotoError) {
        try self.init(pathBytes: Array(path.utf8), displayPath: path)
    }

    deinit { close(descriptor) }

    /// Up to `count` leading bytes of the file (fewer for a shorter file).
    public func prefix(_ count: Int, path: String) throws(PhotoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = -1
        repeat {
            got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        } while got < 0 && errno == EINTR
        guard got >= 0 else {
            throw PhotoError(kind: .io, reason: "cannot read: \(lastErrnoDescription())", path: path)
        }
        return Array(bytes.prefix(got))
    }

    private static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
