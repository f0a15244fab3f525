import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The USB sticks plugged in, read from udev's database and the mount table (no privileges).
public enum StickSurvey {
    /// File systems the frame's udev rule mounts (udev's names).
    public static let mountedFileSystems: Set<String> = ["vfat", "exfat", "ntfs"]

    /// Every USB block device with a file system or none (partitions, or whole unpartitioned
    /// disks), and whether it is mounted below `root`; a mounted stick's photos are counted by
    /// `countPhotos` (doctor walks it by the slideshow's own rules).
    public static func survey(
        root: String = "/media/babyalbum", sysBlock: String = "/sys/class/block", udevData: String = "/run/udev/data",
        mounts: [MountEntry] = MountTable.read(), countPhotos: (String) -> Int
    ) -> [StickReport] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sysBlock)) ?? []).sorted()
        return names.compactMap { name in
            guard let dev = try? String(contentsOfFile: "\(sysBlock)/\(name)/dev", encoding: .utf8) else { return nil }
            let device = dev.trimmingWhitespace()
            let properties = udevProperties(path: "\(udevData)/b\(device)")
            guard properties["ID_BUS"] == "usb" else { return nil }
            // A partitioned disk: its partitions are reported instead.
            if properties["DEVTYPE"] == "disk", properties["ID_PART_TABLE_TYPE"] != nil { return nil }
            return report(
                name: name, device: device, properties: properties, root: root, mounts: mounts,
                countPhotos: countPhotos)
        }
    }

    static func report(
        name: String, device: String, properties: [String: String], root: String, mounts: [MountEntry],
        countPhotos: (String) -> Int
    ) -> StickReport {
        let fileSystem = properties["ID_FS_USAGE"] == "filesystem" ? properties["ID_FS_TYPE"] : nil
        var report = StickReport(device: name, label: properties["ID_FS_LABEL"], fileSystem: fileSystem)
        if let mount = mounts.first(where: { $0.device == device && $0.mountPoint.hasPrefix(root + "/") }) {
            report.mountPoint = mount.mountPoint
            report.photoCount = countPhotos(mount.mountPoint)
        } else if fileSystem == nil {
            report.problem =
                "no file system found (not formatted, or damaged): format it as exFAT or FAT32 on a computer"
        } else if let fileSystem, !mountedFileSystems.contains(fileSystem) {
            report.problem =
                "\(fileSystem) is not read (only FAT, exFAT and NTFS): format it as exFAT or FAT32 on a computer"
        } else {
            report.problem =
                "mounting failed (damaged, or the deploy/ udev rule is not installed); see journalctl -b -t babyalbum-usb"
        }
        return report
    }

    /// `E:KEY=VALUE` lines of a udev database file.
    static func udevProperties(path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var properties: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("E:") {
            let pair = line.dropFirst(2).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { properties[String(pair[0])] = String(pair[1]) }
        }
        return properties
    }
}
