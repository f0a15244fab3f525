/// A USB stick (or one of its partitions) as `doctor` reports it.
public struct StickReport: Sendable, Equatable, Codable {
    /// The kernel name (`sdb1`).
    public var device: String
    /// Its label, if any.
    public var label: String?
    /// Its file system as udev's blkid found it; `nil` when none was found.
    public var fileSystem: String?
    /// Where it is mounted, if it is.
    public var mountPoint: String?
    /// Photo files on it (by name), when mounted.
    public var photoCount: Int?
    /// Why it is not shown, in words a parent can act on; `nil` when it is.
    public var problem: String?

    /// One line for doctor's text.
    public var text: String {
        let name = label.map { "\"\($0)\" (\(device))" } ?? device
        let system = fileSystem ?? "no file system"
        if let mountPoint {
            let count = photoCount ?? 0
            return "\(name), \(system): mounted on \(mountPoint), \(count) photo\(count == 1 ? "" : "s")"
        }
        return "\(name), \(system): not used - \(problem ?? "not mounted")"
    }
}
