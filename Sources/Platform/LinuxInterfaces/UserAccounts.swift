#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's user and group database (`/etc/passwd`, `/etc/group`, through the C library's
/// NSS look-ups), read-only. Every look-up is reentrant (`getpwnam_r`, `getgrnam_r`): the plain
/// `getpwnam` fills one static record, and a look-up on another thread overwrites it while the
/// files backend scans for its own name.
public enum UserAccounts {
    /// The ids of the groups the user `name` belongs to, its primary group first
    /// (`getpwnam_r`, `getgrouplist`); `nil` when there is no such user.
    public static func groupIDs(ofUser name: String) -> Set<UInt32>? {
        guard let primary = primaryGroupID(ofUser: name) else { return nil }
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, primary, &ids, &count)
        }
        return Set(ids.prefix(Int(max(count, 0))).map { UInt32($0) })
    }

    /// The id of the group `name` (`getgrnam_r`); `nil` when there is no such group.
    public static func groupID(ofGroup name: String) -> UInt32? {
        var entry = group()
        let found: gid_t? = withRecordBuffer { buffer, size, result in
            var pointer: UnsafeMutablePointer<group>?
            let error = getgrnam_r(name, &entry, buffer, size, &pointer)
            result = pointer == nil ? nil : entry.gr_gid
            return error
        }
        return found.map { UInt32($0) }
    }

    /// The primary group of the user `name` (`getpwnam_r`); `nil` when there is no such user.
    private static func primaryGroupID(ofUser name: String) -> gid_t? {
        var entry = passwd()
        return withRecordBuffer { buffer, size, result in
            var pointer: UnsafeMutablePointer<passwd>?
            let error = getpwnam_r(name, &entry, buffer, size, &pointer)
            result = pointer == nil ? nil : entry.pw_gid
            return error
        }
    }

    /// Runs a `_r` look-up with a string buffer, doubled while the look-up answers `ERANGE`
    /// (up to 1 MiB); the look-up stores its answer in `result` and returns its error number.
    private static func withRecordBuffer<Value>(
        _ lookUp: (UnsafeMutablePointer<CChar>, Int, inout Value?) -> Int32
    ) -> Value? {
        var size = 1024
        while size <= 1 << 20 {
            var result: Value?
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let status = lookUp(buffer, size, &result)
            if status != ERANGE { return result }
            size *= 2
        }
        return nil
    }
}

extension UserAccounts {
    /// The name of the user this process runs as (`geteuid`, `getpwuid_r`), or its number.
    public static var currentUserName: String {
        let uid = geteuid()
        var entry = passwd()
        let name: String? = withRecordBuffer { buffer, size, result in
            var pointer: UnsafeMutablePointer<passwd>?
            let error = getpwuid_r(uid, &entry, buffer, size, &pointer)
            result = pointer == nil ? nil : String(cString: entry.pw_name)
            return error
        }
        return name ?? "uid \(uid)"
    }

    /// Why this process cannot reach `path` for want of permission, naming the first folder on
    /// the way that it may not enter (or `path` itself, when it may not read it) and the user:
    /// "'/root' cannot be entered by user babyalbum". `nil` when nothing on the way refuses it.
    public static func permissionObstacle(to path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : (currentDirectory ?? "") + "/" + path
        var prefix = ""
        let components = absolute.split(separator: "/")
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let last = index == components.count - 1
            let mode = last ? R_OK | X_OK : X_OK
            if access(prefix, F_OK) != 0 { return nil }
            if access(prefix, mode) != 0 {
                let verb = last ? "read" : "entered"
                return "'\(prefix)' cannot be \(verb) by user \(currentUserName)"
            }
        }
        return nil
    }

    private static var currentDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
