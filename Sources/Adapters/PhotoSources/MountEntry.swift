/// One line of `/proc/self/mountinfo`.
public struct MountEntry: Sendable, Equatable {
    /// The device, `major:minor`.
    public var device: String
    /// Where it is mounted (octal escapes such as `\040` for a space decoded).
    public var mountPoint: String
    /// The file system type (`vfat`, `exfat`, `ntfs3`, …).
    public var fileSystem: String
    /// The mount source (`/dev/sda1`).
    public var source: String
}
