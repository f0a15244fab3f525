import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call of the folder repository: which call, on which path, and the `errno`.
public struct FolderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call that failed (`opendir`, `inotify_add_watch`, `rename`…).
    public var operation: String
    /// The file or folder concerned.
    public var path: String
    /// The C `errno` value (`ENOENT`, `EACCES`…).
    public var code: Int32

    /// Creates an error.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether the file or folder does not exist (`ENOENT`, `ENOTDIR`).
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    /// Whether the caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

    public var description: String {
        "\(path): \(operation): \(String(cString: strerror(code)))"
    }
}

/// Runs a C call that returns -1 and sets `errno` on failure, retrying `EINTR`.
/// The single point where `errno` becomes a ``FolderError``.
func valueOrErrno<I: FixedWidthInteger>(
    _ operation: String, path: String, retryOnInterrupt: Bool = true, _ body: () -> I
) throws(FolderError) -> I {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if retryOnInterrupt, code == EINTR { continue }
        throw FolderError(operation: operation, path: path, code: code)
    }
}

extension FolderError {
    /// The folder repository's error for a failed call of the shared kernel interfaces.
    init(_ failure: SystemCallFailure) {
        self.init(operation: failure.operation, path: failure.path, code: failure.code)
    }
}
