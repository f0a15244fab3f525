/// A file system object's identity: `st_dev` and `st_ino`.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
}
