#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `stat(2)` (following symbolic links) or `lstat(2)` says of a path: the parts of
/// `struct stat` the program uses. The corresponding C type is `struct stat`.
public struct PathStatus: Sendable, Equatable {
    /// The file type, from `st_mode & S_IFMT`.
    public var kind: FileDescriptorStatus.Kind
    /// `st_dev`: the file system it is on.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64
    /// `st_nlink`.
    public var links: UInt64
    /// `st_size`, in bytes.
    public var size: Int64
    /// `st_mtim`, in nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    /// `st_mode`: the type and the permission bits.
    public var mode: UInt32
    /// `st_uid`.
    public var owner: UInt32
    /// `st_gid`.
    public var group: UInt32
    /// `st_rdev`: the device a device node names (its major and minor); 0 for other files.
    public var nodeDevice: UInt64

    /// `stat(2)` of `path` (or `lstat(2)` when not `followingLinks`), a path given as bytes (a
    /// name from `readdir` or inotify need not be UTF-8). A failure names the call, with an empty
    /// path: the caller names the path its own way.
    public init(pathBytes path: [UInt8], followingLinks: Bool = true) throws(SystemCallFailure) {
        var buffer = stat()
        let cPath = path + [0]
        let result = cPath.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                followingLinks ? stat($0.baseAddress!, &buffer) : lstat($0.baseAddress!, &buffer)
            }
        }
        guard result == 0 else {
            throw SystemCallFailure(operation: followingLinks ? "stat" : "lstat", path: "", code: errno)
        }
        kind = FileDescriptorStatus(buffer).kind
        device = UInt64(buffer.st_dev)
        inode = UInt64(buffer.st_ino)
        links = UInt64(buffer.st_nlink)
        size = Int64(buffer.st_size)
        modifiedNanoseconds = Int64(buffer.st_mtim.tv_sec) * 1_000_000_000 + Int64(buffer.st_mtim.tv_nsec)
        mode = UInt32(buffer.st_mode)
        owner = UInt32(buffer.st_uid)
        group = UInt32(buffer.st_gid)
        nodeDevice = UInt64(buffer.st_rdev)
    }
}
