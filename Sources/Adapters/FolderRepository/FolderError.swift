import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call of the folder repository: which call (`opendir`, `inotify_add_watch`,
/// `rename`…), on which path, and the `errno`. The shared ``SystemCallFailure``, with the
/// questions the repository asks of it.
public typealias FolderError = SystemCallFailure

extension SystemCallFailure {
    /// Whether the file or folder does not exist (`ENOENT`, `ENOTDIR`).
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    /// The call and the error, without the path (`opendir: Permission denied`): for a log line
    /// that names the path itself, escaped.
    public var withoutPath: String { "\(operation): \(errnoDescription(code))" }

    /// Whether the caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }
}
