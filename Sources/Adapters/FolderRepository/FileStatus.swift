import AlbumDomain
import LinuxInterfaces

/// The parts of `struct stat` the repository uses.
struct FileStatus: Sendable {
    /// The file type from `st_mode`.
    enum Kind: Sendable {
        case regular, directory, symbolicLink, other
    }

    var kind: Kind
    /// `st_dev`.
    var device: UInt64
    /// `st_nlink`.
    var links: UInt64
    /// Size, modification time and inode.
    var signature: FileSignature

    /// Whether the last write lies at least `duration` in the past by the wall clock
    /// (`CLOCK_REALTIME`). A modification time in the future (a board without a real-time
    /// clock, before it learned the date) never counts as old.
    func modifiedLongerAgo(than duration: Duration) -> Bool {
        let nowNanoseconds = RealtimeClock.nowNanoseconds
        let (seconds, attoseconds) = duration.components
        let durationNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return nowNanoseconds - signature.modified >= durationNanoseconds
    }

    /// The identity of the file system object, for loop detection.
    var identity: FileIdentity { FileIdentity(device: device, inode: signature.inode) }

    /// `stat(2)` (following symbolic links) or `lstat(2)`.
    init(path: String, followingLinks: Bool = true) throws(FolderError) {
        try self.init(pathBytes: Array(path.utf8), followingLinks: followingLinks)
    }

    /// `stat(2)` (following symbolic links) or `lstat(2)` of a path given as bytes
    /// (``PathStatus``).
    init(pathBytes path: [UInt8], followingLinks: Bool = true) throws(FolderError) {
        let status: PathStatus
        do throws(SystemCallFailure) {
            status = try PathStatus(pathBytes: path, followingLinks: followingLinks)
        } catch {
            // The escaped name is made only for the error: `stat` runs once per event and entry.
            throw FolderError(operation: error.operation, path: PhotoID(bytes: path).description, code: error.code)
        }
        kind =
            switch status.kind {
            case .regular: .regular
            case .directory: .directory
            case .symbolicLink: .symbolicLink
            default: .other
            }
        device = status.device
        links = status.links
        signature = FileSignature(
            size: status.size, modified: status.modifiedNanoseconds, inode: status.inode,
            access: FileAccess(mode: status.mode, owner: status.owner, group: status.group))
    }
}

/// `parent/name`, without doubling the slash.
func joinPath(_ parent: String, _ name: String) -> String {
    parent.hasSuffix("/") ? parent + name : parent + "/" + name
}

/// `parent/name` as bytes, without doubling the slash.
func joinPath(_ parent: some BidirectionalCollection<UInt8>, _ name: some Collection<UInt8>) -> [UInt8] {
    // Sized exactly: a path is kept for as long as its photo is listed.
    let slash = parent.last == UInt8(ascii: "/") ? 0 : 1
    var path: [UInt8] = []
    path.reserveCapacity(parent.count + slash + name.count)
    path += parent
    if slash == 1 { path.append(UInt8(ascii: "/")) }
    path += name
    return path
}
