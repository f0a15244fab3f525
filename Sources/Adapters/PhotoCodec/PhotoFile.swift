import LinuxInterfaces

/// A photo file opened so that it can never block the decoder: `O_NONBLOCK | O_CLOEXEC`, then
/// `fstat` on the opened descriptor, refusing anything that is not a regular file (a FIFO or a
/// device renamed over a photo between the scan and the open is refused at once).
///
/// The one owner of its ``FileDescriptor``, closed when the value ends.
public struct PhotoFile: ~Copyable {
    private let file: FileDescriptor
    /// The file's size in bytes when it was opened.
    public let size: Int64

    /// The open descriptor (read only, positioned anywhere), for the codecs' C calls; valid
    /// while the value lives.
    public var descriptor: Int32 { file.rawValue }

    /// Opens `path` (a file name as bytes, without a terminating zero).
    public init(pathBytes: some Collection<UInt8>, displayPath: String) throws(PhotoError) {
        guard !pathBytes.contains(0) else {
            throw PhotoError(kind: .io, reason: "cannot open: the name contains a zero byte", path: displayPath)
        }
        let opened: FileDescriptor
        let status: FileDescriptorStatus
        do throws(SystemCallFailure) {
            opened = try FileDescriptor(
                openingBytes: pathBytes, displayPath: displayPath, options: [.nonBlocking, .noControllingTerminal])
        } catch {
            throw PhotoError(kind: .io, reason: "cannot open: \(errnoDescription(error.code))", path: displayPath)
        }
        do throws(SystemCallFailure) {
            status = try opened.status()
        } catch {
            throw PhotoError(kind: .io, reason: "cannot read: \(errnoDescription(error.code))", path: displayPath)
        }
        guard status.kind == .regular else {
            throw PhotoError(kind: .notRegularFile, reason: "not a regular file (\(status.kind))", path: displayPath)
        }
        file = opened
        size = status.size
    }

    /// Opens `path`.
    public init(path: String) throws(PhotoError) {
        try self.init(pathBytes: Array(path.utf8), displayPath: path)
    }

    /// Up to `count` leading bytes of the file (fewer for a shorter file), with `pread`.
    public func prefix(_ count: Int, path: String) throws(PhotoError) -> [UInt8] {
        do throws(SystemCallFailure) {
            return try file.read(at: 0, upTo: count)
        } catch {
            throw PhotoError(kind: .io, reason: "cannot read: \(errnoDescription(error.code))", path: path)
        }
    }
}
