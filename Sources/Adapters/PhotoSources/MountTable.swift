import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The mount table of this process's mount namespace.
public enum MountTable {
    /// Where the kernel publishes it; `poll` reports a change with `POLLPRI`.
    public static let path = "/proc/self/mountinfo"

    /// Parses `mountinfo` text.
    public static func parse(_ text: String) -> [MountEntry] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 10, let separator = fields.firstIndex(of: "-"), separator + 2 < fields.count else {
                return nil
            }
            return MountEntry(
                device: fields[2], mountPoint: unescape(fields[4]), fileSystem: fields[separator + 1],
                source: unescape(fields[separator + 2]))
        }
    }

    /// Reads this process's table, to its end (``fileContents(_:limit:)``: the kernel gives it
    /// a page per `read`); empty when it cannot be read.
    public static func read() -> [MountEntry] {
        guard let bytes = try? fileContents(path) else { return [] }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The mount points strictly below `root` (one a stick), sorted, without duplicates
    /// (a mount over a mount shows once).
    public static func mountPoints(below root: String, in entries: [MountEntry]) -> [String] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return Array(Set(entries.map(\.mountPoint).filter { $0.hasPrefix(prefix) && $0.count > prefix.count })).sorted()
    }

    /// Decodes the kernel's `\ooo` escapes (space, tab, newline, backslash).
    static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
