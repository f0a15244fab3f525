#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call: which call, on which path, and the `errno` (`int errno`). Each layer turns it into
/// its own error, with its own advice (`FolderError`, `InputError`, `DRMError`,
/// `SystemdNotifyError`).
public struct SystemCallFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call that failed (`inotify_add_watch`…).
    public var operation: String
    /// The file or folder concerned.
    public var path: String
    /// The C `errno` value.
    public var code: Int32

    /// Creates a failure.
    public init(operation: String, path: String, code: Int32) {
        (self.operation, self.path, self.code) = (operation, path, code)
    }

    public var description: String { "\(path): \(operation): \(errnoDescription(code))" }
}

/// The C library's text for an `errno` value (`strerror`): the one place one is formatted.
public func errnoDescription(_ code: Int32) -> String { String(cString: strerror(code)) }

/// The text for the calling thread's current `errno` (`strerror(errno)`), read at once.
public func lastErrnoDescription() -> String { errnoDescription(errno) }

/// Runs a C call that returns -1 and sets `errno` on failure, retrying `EINTR` (unless told
/// not to, as for `close`). The single point where `errno` becomes an error; each layer maps
/// the ``SystemCallFailure`` to its own error type, or wraps it with its own advice.
///
/// With `negativeIsFailure`, any negative result fails, and a result below -1 is itself the
/// negated error number: libdrm's convention (`drmModeAddFB2` returns `-errno`).
@discardableResult
public func valueOrErrno<I: FixedWidthInteger>(
    _ operation: String, path: String, retryOnInterrupt: Bool = true, negativeIsFailure: Bool = false,
    _ body: () -> I
) throws(SystemCallFailure) -> I {
    while true {
        let result = body()
        if result != -1 && !(negativeIsFailure && result < 0) { return result }
        let code = result < -1 ? Int32(truncatingIfNeeded: -Int64(truncatingIfNeeded: result)) : errno
        if retryOnInterrupt, code == EINTR { continue }
        throw SystemCallFailure(operation: operation, path: path, code: code)
    }
}

/// Lists a directory's entry names (`opendir`, `readdir`), without `.` and `..`, decoded as
/// UTF-8 (names that are not UTF-8 get replacement characters: for device names, not for paths
/// that must be opened again; those use ``directoryEntryNames(_:)``).
public func directoryEntries(_ path: String) throws(SystemCallFailure) -> [String] {
    try directoryEntryNames(Array(path.utf8)).map { String(decoding: $0, as: UTF8.self) }
}

/// Lists a directory's entry names as the bytes `readdir` gives (`opendir`, `readdir`), without
/// `.` and `..`. `path` is bytes too (no terminating zero), so any name can be listed and opened.
public func directoryEntryNames(_ path: some Collection<UInt8>) throws(SystemCallFailure) -> [[UInt8]] {
    try packedDirectoryEntryNames(path).map { Array($0) }
}
