import LinuxInterfaces

// The state files' I/O: every call's result is checked, and every write that must survive a
// power cut is `fsync`ed, with the folder `fsync`ed after a name is created or replaced.

/// Whether `path` is a folder this process may create files in (`access(W_OK | X_OK)`).
func isWritableDirectory(_ path: String) -> Bool {
    guard let status = try? FileStatus(path: path), status.kind == .directory else { return false }
    return PathAccess.mayCreateFiles(in: path)
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
    let file = try openStateFile(path)
    let status: FileDescriptorStatus
    do throws(FolderError) {
        status = try file.status()
    } catch {
        throw StateFileProblem(failure: error, reason: "")
    }
    guard status.kind == .regular else { throw StateFileProblem(reason: "not a regular file") }
    guard status.size <= limit else {
        throw StateFileProblem(reason: "\(status.size) bytes, more than a state file may have (\(limit))")
    }
    do throws(FolderError) {
        // At most its size: a file that grows while it is read fails with `EFBIG`.
        return try file.readToEnd(limit: Int(status.size))
    } catch {
        if error.isTooLarge { throw StateFileProblem(reason: "it grew while it was read") }
        throw StateFileProblem(failure: error, reason: "")
    }
}

/// `open(O_NONBLOCK | O_NOCTTY)` of a state file.
private func openStateFile(_ path: String) throws(StateFileProblem) -> FileDescriptor {
    do throws(FolderError) {
        return try FileDescriptor(opening: path, options: [.nonBlocking, .noControllingTerminal])
    } catch {
        throw StateFileProblem(failure: error, reason: "")
    }
}

/// The temporary file ``replaceFile(_:with:)`` writes before renaming it over `path`: in the
/// same folder (a rename cannot cross file systems), hidden, and named `.tmp` so that a
/// photo folder's walk skips it.
func temporaryName(for path: String) -> String { path + ".tmp" }

/// Replaces `path` atomically (``FileDescriptor/replaceAtomically(_:with:temporary:permissions:)``
/// through ``temporaryName(for:)``). Returns the number of bytes written.
@discardableResult
func replaceFile(_ path: String, with bytes: [UInt8]) throws(FolderError) -> Int {
    try FileDescriptor.replaceAtomically(path, with: bytes, temporary: temporaryName(for: path))
}

/// Appends `bytes` to `path` (created when missing, then its folder `fsync`ed) and `fsync`s
/// it; `header` is written first when the file is empty. Returns the number of bytes written.
@discardableResult
func appendToFile(_ path: String, _ bytes: [UInt8], header: [UInt8]) throws(FolderError) -> Int {
    let file = try FileDescriptor(opening: path, .writeOnly, options: [.append, .create])
    let isNew = try file.status().size == 0
    let start = isNew ? header + bytes : bytes
    try file.write(start)
    try file.sync()
    try file.close()
    if isNew { try FileDescriptor.syncFolder(of: path) }
    return start.count
}

/// Removes `path`; a file already gone is fine. The folder is `fsync`ed.
func removeFile(_ path: String) throws(FolderError) {
    do throws(FolderError) {
        try PathAccess.remove(path)
    } catch {
        if error.isMissing { return }
        throw error
    }
    try FileDescriptor.syncFolder(of: path)
}
