#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Calls on paths that need no descriptor: whether this process may use one (`access(2)`), and
/// removing a name (`unlink(2)`).
public enum PathAccess {
    /// Whether this process may create files in the folder `path` (`access(W_OK | X_OK)`).
    public static func mayCreateFiles(in path: String) -> Bool { access(path, W_OK | X_OK) == 0 }

    /// Whether this process may write the file at `path` (`access(W_OK)`).
    public static func mayWrite(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Whether this process may run the file at `path` (`access(X_OK)`).
    public static func mayExecute(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// `unlink(2)` of `path`.
    public static func remove(_ path: String) throws(SystemCallFailure) {
        try valueOrErrno("unlink", path: path) { unlink(path) }
    }
}

/// What a symbolic link names (`readlink(2)`): `/proc/self/exe` is this very program.
public enum SymbolicLink {
    /// The target of the link at `path`, as written in the link; `nil` when it is no link or
    /// cannot be read.
    public static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The process's exit handlers (`atexit(3)`): they run on `exit` and on a return from `main`.
public enum ExitHandlers {
    /// Registers `handler` (a C function pointer: a closure that captures nothing).
    public static func register(_ handler: @escaping @convention(c) () -> Void) {
        _ = atexit(handler)
    }
}

extension SystemCallFailure {
    /// A peer that answered outside its protocol (`EPROTO`), for `operation` on `path`.
    public static func protocolError(_ operation: String, path: String) -> SystemCallFailure {
        SystemCallFailure(operation: operation, path: path, code: EPROTO)
    }

    /// No answer came in time (`ETIMEDOUT`), for `operation` on `path`.
    public static func timedOut(_ operation: String, path: String) -> SystemCallFailure {
        SystemCallFailure(operation: operation, path: path, code: ETIMEDOUT)
    }

    /// Whether the file or folder does not exist (`ENOENT`, `ENOTDIR`).
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    /// Whether the caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

    /// Whether a limit of the kernel's ran out (`ENOSPC`: inotify's watches, a full disk).
    public var isOutOfSpace: Bool { code == ENOSPC }

    /// Whether a file is larger than allowed (`EFBIG`).
    public var isTooLarge: Bool { code == EFBIG }

    /// The call and the error, without the path (`opendir: Permission denied`): for a log line
    /// that names the path itself, escaped.
    public var withoutPath: String { "\(operation): \(errnoDescription(code))" }
}
