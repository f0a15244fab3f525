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
