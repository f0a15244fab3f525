/// What the driver saw of a file when it looked (`stat`, and for a new entry `lstat`).
struct FileObservation: Sendable, Equatable {
    /// Size, modification time, inode, mode and owner.
    var signature: FileSignature
    /// Whether the last write is older than the settle time by the wall clock.
    var modifiedLongAgo: Bool
    /// Whether a new entry is a symbolic link or a second hard link (it points at a file that
    /// exists already, so no writer will close it).
    var isLink: Bool
}
