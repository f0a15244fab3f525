import Glibc

/// Reads a whole file with `open` and `read` until `read` returns 0 (end of file).
///
/// Files of `/proc` and `/sys` report a size of 0 and hand out their text a page at a time
/// (`seq_file`): `/proc/self/mountinfo` of a sandboxed service is longer than a page, and a
/// reader that takes the first short `read` for the end never sees the mounts after it.
/// Reads at most `limit` bytes (more is an `EFBIG` failure), so a runaway file costs nothing.
public func fileContents(_ path: String, limit: Int = 16 << 20) throws(SystemCallFailure) -> [UInt8] {
    let file = try FileDescriptor(opening: path, options: .nonBlocking)
    return try file.readToEnd(limit: limit)
}

/// The file at `path` as UTF-8 text (invalid bytes replaced); `nil` when it cannot be read.
public func textFile(_ path: String, limit: Int = 16 << 20) -> String? {
    guard let bytes = try? fileContents(path, limit: limit) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// Whether `path` is a folder (following links).
public func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
}

/// Whether anything exists at `path` (following links).
public func pathExists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
}

/// `rename(2)`: `source` takes the place of `destination` in one step (both on one file system),
/// so a reader sees the old file or the new one, never a partial one.
public func renameFile(_ source: String, to destination: String) throws(SystemCallFailure) {
    try valueOrErrno("rename", path: destination) { rename(source, destination) }
}

/// `unlink(2)` of `path`, to remove a temporary file after a failure: the result is not checked.
public func removeFileIgnoringErrors(_ path: String) {
    _ = unlink(path)
}
