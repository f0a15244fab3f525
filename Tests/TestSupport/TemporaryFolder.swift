import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary folder (`mkdtemp`), removed by ``remove()``. Shared by every test target.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let path: String

    /// Creates the folder.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/babyalbum-test-XXXXXX").utf8CString)
        // The name is read inside the closure: mkdtemp returns the template's own buffer, which
        // is not valid after it (an optimized build reused that memory for the String, and the
        // copy stopped at "initialize overlapping range").
        let made = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = made
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `relative` inside the folder.
    public func file(_ relative: String) -> String { path + "/" + relative }

    /// The names in the folder, sorted.
    public func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Writes a complete file (`open`, `write`, `close`: one `IN_CLOSE_WRITE`), creating its
    /// folders.
    @discardableResult
    public func write(_ relative: String, bytes: Int = 32, fill: UInt8 = 0x42) throws -> String {
        let target = file(relative)
        let directory = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeFile(target, bytes: bytes, fill: fill)
        return target
    }

    /// Creates a folder (and its parents).
    public func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: file(relative), withIntermediateDirectories: true)
    }

    /// `rename(2)` within the folder.
    public func move(_ from: String, _ to: String) throws {
        guard rename(file(from), file(to)) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// Removes a file or folder.
    public func delete(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: file(relative))
    }
}

/// Writes a file in place with `open`, `write`, `close` (so inotify sees `IN_CREATE`, `IN_MODIFY`,
/// `IN_CLOSE_WRITE`; Foundation's `createFile` would write a temporary file and rename it).
public func writeFile(_ path: String, bytes: Int = 32, fill: UInt8 = 0x42) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let content = [UInt8](repeating: fill, count: bytes)
    guard write(fd, content, content.count) == content.count else { throw POSIXError(.EIO) }
}

/// The resident set size of a process (this one by default), from `/proc/PID/status`
/// (`VmRSS`), in kB; `nil` when it cannot be read (the process is gone).
public func residentKilobytes(of pid: Int32? = nil) -> Int? {
    let file = "/proc/" + (pid.map(String.init) ?? "self") + "/status"
    guard let status = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}
