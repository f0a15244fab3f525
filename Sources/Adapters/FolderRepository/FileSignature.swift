/// What the repository remembers of a photo file: enough to tell that it changed.
struct FileSignature: Hashable, Sendable {
    /// `st_size`.
    var size: Int64
    /// `st_mtim`, in nanoseconds.
    var modified: Int64
    /// `st_ino`: a file renamed over the old one is a new inode.
    var inode: UInt64
    /// `st_mode`, `st_uid` and `st_gid`: a `chmod` or `chown` that makes an unreadable photo
    /// readable changes the file (inotify says `IN_ATTRIB`), so a skipped photo is tried again.
    var access: FileAccess = FileAccess()
}
