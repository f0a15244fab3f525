import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The state files' I/O: every call's result is checked, and every write that must survive a
// power cut is `fsync`ed, with the folder `fsync`ed after a name is created or replaced.

/// Whether `path` is a folder this process may create files in (`access(W_OK | X_OK)`).
func isWritableDirectory(_ path: String) -> Bool {
    guard let status = try? FileStatus(path: path), status.kind == .directory else { return false }
    return access(path, W_OK | X_OK) == 0
}

/// Why the state file was not read.
struct StateFileProblem: Error, CustomStringConvertible {
    /// The failed call, when a call failed.
    var failure: FolderError?
    /// What else was wrong (not a regular file, too big).
    var reason: String

    /// Whether there is no state file (the first start).
    var isMissing: Bool { failure?.isMissing ?? false }

    var description: String { failure.map { "\($0)" } ?? reason }
}

/// Reads a state file whole, safely: opened with `O_NONBLOCK` (a FIFO put there cannot hang
/// the start), then `fstat` on the descriptor refuses anything but a regular file, and a file
/// larger than `limit` is refused before a byte of it is read.
func readStateFile(_ path: String, limit: Int) throws(StateFileProblem) -> [UInt8] {
    let fd: Int32
    do throws(FolderError) {
        fd = try valueOrErrno("open", path: path) { open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
    } catch {
        throw StateFileProblem(failure: error, reason: "")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
        throw StateFileProblem(failure: FolderError(operation: "fstat", path: path, code: errno), reason: "")
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw StateFileProblem(reason: "not a regular file") }
    guard status.st_size <= limit else {
        throw StateFileProblem(reason: "\(status.st_size) bytes, more than a state file may have (\(limit))")
    }
    // One byte more than its size, to notice a file that grows while it is read.
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var filled = 0
    while filled < bytes.count {
        let count: Int
        do throws(FolderError) {
            count = try valueOrErrno("read", path: path) {
                bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            }
        } catch {
            throw StateFileProblem(failure: error, reason: "")
        }
        if count == 0 { break }
        filled += count
    }
    guard filled <= Int(status.st_size) else { throw StateFileProblem(reason: "it grew while it was read") }
    bytes.removeSubrange(filled...)
    return bytes
}

/// The temporary file ``replaceFile(_:with:)`` writes before renaming it over `path`: in the
/// same folder (a rename cannot cross file systems), hidden, and named `.tmp` so that a
/// photo folder's walk skips it.
func temporaryName(for path: String) -> String { path + ".tmp" }

/// Replaces `path` atomically: writes ``temporaryName(for:)``, `fsync`s it, renames it over
/// `path`, then `fsync`s the folder so the rename itself survives a power cut. On any failure
/// the temporary file is removed. Returns the number of bytes written.
@discardableResult
func replaceFile(_ path: String, with bytes: [UInt8]) throws(FolderError) -> Int {
    let temporary = temporaryName(for: path)
    let fd = try valueOrErrno("open", path: temporary) {
        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }
    do throws(FolderError) {
        try writeAll(fd, bytes, path: temporary)
        try valueOrErrno("fsync", path: temporary) { fsync(fd) }
        try valueOrErrno("close", path: temporary, retryOnInterrupt: false) { close(fd) }
    } catch {
        close(fd)
        unlink(temporary)
        throw error
    }
    do throws(FolderError) {
        try valueOrErrno("rename", path: path) { rename(temporary, path) }
    } catch {
        unlink(temporary)
        throw error
    }
    try syncFolder(of: path)
    return bytes.count
}

/// Appends `bytes` to `path` (created when missing, then its folder `fsync`ed) and `fsync`s
/// it; `header` is written first when the file is empty. Returns the number of bytes written.
@discardableResult
func appendToFile(_ path: String, _ bytes: [UInt8], header: [UInt8]) throws(FolderError) -> Int {
    let fd = try valueOrErrno("open", path: path) {
        open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    }
    var written = 0
    do throws(FolderError) {
        var status = stat()
        try valueOrErrno("fstat", path: path) { fstat(fd, &status) }
        let start = status.st_size == 0 ? header + bytes : bytes
        try writeAll(fd, start, path: path)
        written = start.count
        try valueOrErrno("fsync", path: path) { fsync(fd) }
        try valueOrErrno("close", path: path, retryOnInterrupt: false) { close(fd) }
        if status.st_size == 0 { try syncFolder(of: path) }
    } catch {
        close(fd)
        throw error
    }
    return written
}

/// Removes `path`; a file already gone is fine. The folder is `fsync`ed.
func removeFile(_ path: String) throws(FolderError) {
    guard unlink(path) == 0 else {
        let failure = FolderError(operation: "unlink", path: path, code: errno)
        if failure.isMissing { return }
        throw failure
    }
    try syncFolder(of: path)
}

private func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FolderError) {
    var written = 0
    while written < bytes.count {
        let count = try valueOrErrno("write", path: path) {
            bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        }
        written += count
    }
}

/// `fsync`s the folder holding `path`, so that a name created, replaced or removed in it
/// survives a power cut.
private func syncFolder(of path: String) throws(FolderError) {
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let directory = try valueOrErrno("open", path: folder) { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    defer { close(directory) }
    try valueOrErrno("fsync", path: folder) { fsync(directory) }
}
