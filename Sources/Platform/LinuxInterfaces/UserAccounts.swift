#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system's user and group database (`/etc/passwd`, `/etc/group`, through the C library's
/// NSS look-ups), read-only.
public enum UserAccounts {
    /// The ids of the groups the user `name` belongs to, its primary group first
    /// (`getpwnam`, `getgrouplist`); `nil` when there is no such user.
    public static func groupIDs(ofUser name: String) -> Set<UInt32>? {
        guard let user = getpwnam(name) else { return nil }
        let primary = user.pointee.pw_gid
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, primary, &ids, &count)
        }
        return Set(ids.prefix(Int(max(count, 0))).map { UInt32($0) })
    }

    /// The id of the group `name` (`getgrnam`); `nil` when there is no such group.
    public static func groupID(ofGroup name: String) -> UInt32? {
        guard let entry = getgrnam(name) else { return nil }
        return UInt32(entry.pointee.gr_gid)
    }
}
