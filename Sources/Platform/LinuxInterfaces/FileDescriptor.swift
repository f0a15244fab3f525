#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open file descriptor (`int fd`) with one owner: closed exactly once, by ``close()`` (whose
/// result is checked) or, failing that, when the value ends (`deinit`). It cannot be copied, so
/// no second owner can close it again or use it after it is closed.
///
/// Every call goes through ``valueOrErrno(_:path:retryOnInterrupt:negativeIsFailure:_:)``: a
/// failure is a ``SystemCallFailure`` naming the C call, ``path`` and the `errno` text.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The C descriptor number, for calls this type does not wrap (`ioctl`, `poll`). Valid only
    /// while the value lives.
    public private(set) var rawValue: Int32
    /// What was opened (a path, or a name such as "inotify"), for error messages.
    public let path: String

    /// Takes ownership of `rawValue`, which a C call returned (`socket`, `inotify_init1`, `pipe2`).
    public init(adopting rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    /// `open(2)` of `path` for `access`, with `options` (`O_CLOEXEC` is always added) and, for a
    /// created file, `permissions`.
    public init(
        opening path: String, _ access: Access = .readOnly, options: Options = [], permissions: UInt32 = 0o644
    ) throws(SystemCallFailure) {
        let flags = access.rawValue | options.rawValue | O_CLOEXEC
        let descriptor = try valueOrErrno("open", path: path) { open(path, flags, mode_t(permissions)) }
        self.init(adopting: descriptor, path: path)
    }

    /// `open(2)` of a path given as bytes (no terminating zero; a zero byte inside is `EINVAL`),
    /// named `displayPath` in errors.
    public init(
        openingBytes pathBytes: some Collection<UInt8>, displayPath: String, _ access: Access = .readOnly,
        options: Options = []
    ) throws(SystemCallFailure) {
        let flags = access.rawValue | options.rawValue | O_CLOEXEC
        var cPath = Array(pathBytes)
        guard !cPath.contains(0) else { throw SystemCallFailure(operation: "open", path: displayPath, code: EINVAL) }
        cPath.append(0)
        let descriptor = try valueOrErrno("open", path: displayPath) {
            cPath.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, flags) }
            }
        }
        self.init(adopting: descriptor, path: displayPath)
    }

    deinit {
        if rawValue >= 0 { _ = Glibc.close(rawValue) }
    }

    /// `close(2)`, with its result checked (a failed `close` after writing can mean lost data).
    /// Never retried: on Linux the descriptor is gone even when `close` reports `EINTR`.
    public consuming func close() throws(SystemCallFailure) {
        let descriptor = rawValue
        rawValue = -1  // the deinit that follows closes nothing
        try valueOrErrno("close", path: path, retryOnInterrupt: false) { Glibc.close(descriptor) }
    }

    /// `close(2)` now, for an owner that must let go before it ends (a DRM card dropping master,
    /// the console given back); the result is not checked, as in `deinit`. Afterwards
    /// ``rawValue`` is -1 (which `poll` skips) and nothing is closed again.
    public mutating func closeNow() {
        if rawValue >= 0 { _ = Glibc.close(rawValue) }
        rawValue = -1
    }

    /// The descriptor moved to a new owner; this value is left with -1 and closes nothing. For an
    /// owner that gives its descriptor away and then ends whole (moving the field out of it
    /// instead crashes Swift 6.2.3's SIL verifier).
    public mutating func movedOut() -> FileDescriptor {
        let moved = FileDescriptor(adopting: rawValue, path: path)
        rawValue = -1
        return moved
    }

    /// `fstat(2)`: what the descriptor refers to.
    public func status() throws(SystemCallFailure) -> FileDescriptorStatus {
        var buffer = stat()
        let descriptor = rawValue
        try valueOrErrno("fstat", path: path) { fstat(descriptor, &buffer) }
        return FileDescriptorStatus(buffer)
    }

    /// `read(2)` into `buffer`: the number of bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallFailure) -> Int {
        let descriptor = rawValue
        return try valueOrErrno("read", path: path) { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `read(2)` into the whole of `bytes`: the number of bytes read, 0 at the end of the file.
    public func read(into bytes: inout [UInt8]) throws(SystemCallFailure) -> Int {
        let descriptor = rawValue
        return try valueOrErrno("read", path: path) {
            bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// `read(2)` until it returns 0 (the end of the file). Files of `/proc` and `/sys` hand out
    /// their text a page at a time, so a short read is not the end. More than `limit` bytes is
    /// an `EFBIG` failure.
    public func readToEnd(limit: Int) throws(SystemCallFailure) -> [UInt8] {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = try read(into: &chunk)
            if count == 0 { return contents }
            guard contents.count + count <= limit else {
                throw SystemCallFailure(operation: "read", path: path, code: EFBIG)
            }
            contents.append(contentsOf: chunk[0..<count])
        }
    }

    /// `pread(2)`: up to `count` bytes from `offset`, without moving the file position (fewer at
    /// the end of the file).
    public func read(at offset: Int64, upTo count: Int) throws(SystemCallFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let descriptor = rawValue
        let got = try valueOrErrno("pread", path: path) {
            bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        }
        bytes.removeSubrange(got...)
        return bytes
    }

    /// `write(2)` of all of `bytes`, continuing after short writes.
    public func write(_ bytes: [UInt8]) throws(SystemCallFailure) {
        let descriptor = rawValue
        var written = 0
        while written < bytes.count {
            written += try valueOrErrno("write", path: path) {
                bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            }
        }
    }

    /// `fsync(2)`: the file's data and metadata reach the disk before this returns.
    public func sync() throws(SystemCallFailure) {
        let descriptor = rawValue
        try valueOrErrno("fsync", path: path) { fsync(descriptor) }
    }

    /// `ftruncate(2)`: the file becomes `size` bytes long (cut, or extended with zeros).
    public func truncate(toSize size: Int64) throws(SystemCallFailure) {
        let descriptor = rawValue
        try valueOrErrno("ftruncate", path: path) { ftruncate(descriptor, off_t(size)) }
    }
}

extension FileDescriptor {
    /// How a file is opened: the access mode of `open(2)`'s flags.
    public enum Access: Int32, Sendable {
        /// `O_RDONLY`
        case readOnly = 0
        /// `O_WRONLY`
        case writeOnly = 1
        /// `O_RDWR`
        case readWrite = 2
    }

    /// The other flags of `open(2)`.
    public struct Options: OptionSet, Sendable {
        public var rawValue: Int32

        /// Creates options from their bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `O_CREAT`: create the file if it is missing.
        public static let create = Options(rawValue: O_CREAT)
        /// `O_TRUNC`: empty the file.
        public static let truncate = Options(rawValue: O_TRUNC)
        /// `O_EXCL`: with ``create``, fails when the file exists (a file made by this call alone).
        public static let exclusive = Options(rawValue: O_EXCL)
        /// `O_APPEND`: every write goes to the end.
        public static let append = Options(rawValue: O_APPEND)
        /// `O_NONBLOCK`: never block (a FIFO or a device put where a file was expected).
        public static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// `O_NOCTTY`: a terminal never becomes the controlling terminal.
        public static let noControllingTerminal = Options(rawValue: O_NOCTTY)
        /// `O_DIRECTORY`: fail unless the path is a folder.
        public static let directory = Options(rawValue: O_DIRECTORY)
    }

    /// Replaces `path` atomically, so that a power cut leaves the old file or the new one: writes
    /// `temporary` (`open` with `O_CREAT | O_TRUNC`, `write`), `fsync`s and `close`s it, `rename`s
    /// it over `path`, then `fsync`s the folder so the rename itself is on the disk. Every result
    /// is checked; on a failure the temporary file is removed (`unlink`). Returns the bytes written.
    @discardableResult
    public static func replaceAtomically(
        _ path: String, with bytes: [UInt8], temporary: String, permissions: UInt32 = 0o644
    ) throws(SystemCallFailure) -> Int {
        do throws(SystemCallFailure) {
            let file = try FileDescriptor(
                opening: temporary, .writeOnly, options: [.create, .truncate], permissions: permissions)
            try file.write(bytes)
            try file.sync()
            try file.close()
            try renameFile(temporary, to: path)
        } catch {
            removeFileIgnoringErrors(temporary)
            throw error
        }
        try syncFolder(of: path)
        return bytes.count
    }

    /// `fsync(2)` of the folder holding `path` (opened `O_RDONLY | O_DIRECTORY`), so that a name
    /// created, replaced or removed in it survives a power cut.
    public static func syncFolder(of path: String) throws(SystemCallFailure) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let directory = try FileDescriptor(opening: folder, options: .directory)
        try directory.sync()
        try directory.close()
    }
}
