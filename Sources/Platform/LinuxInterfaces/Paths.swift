#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The canonical form of `path` (C `realpath`): symbolic links, `.` and `..` resolved, so that
/// `photos` and `/home/me/photos` compare equal. `nil` if the path does not exist.
public func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
