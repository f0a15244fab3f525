import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The frame only ever reads the photo folder: after a run over every kind of hostile file and
/// name, with a SIGHUP rescan in the middle, each entry has the same type, mode, size,
/// modification time and bytes as before, and nothing was added or removed.
@Suite struct PhotosNeverChangedEndToEndTests {
    let fixtures = BabyAlbumProcess.repository + "/Tests/PhotoCodecTests/Fixtures"

    @Test func aHostileRunLeavesEveryFileAsItWas() throws {
        let album = try TemporaryFolder()
        let output = try TemporaryFolder()
        let state = try TemporaryFolder()
        defer { for folder in [album, output, state] { folder.remove() } }
        try fillWithHostileFiles(album)
        let before = try FolderSnapshot(album.path)
        #expect(before.entries.count >= 20, "the check covers the whole hostile folder: \(before.entries.count)")

        let running = try BabyAlbumProcess([
            "--photos", album.path, "--output", "png:" + output.path, "--size", "64x36", "--interval", "0.3",
            "--count", "8", "--seed", "5", "--state-dir", state.path,
        ])
        #expect(waitUntil(timeout: 30) { output.files().count >= 2 }, "the slideshow runs: \(running.log)")
        kill(running.process.processIdentifier, SIGHUP)
        let result = running.finish(timeout: 60)
        #expect(result.status == 0, "\(result.log.suffix(2_000))")
        #expect(result.log.contains("reading the photo folder afresh"), "the SIGHUP rescan ran")
        #expect(result.log.contains("skipping"), "hostile files were met and skipped")
        #expect(!state.files().isEmpty, "the run saved its state, beside the photos, not among them")

        let after = try FolderSnapshot(album.path)
        #expect(after.entries.count == before.entries.count)
        for (path, entry) in before.entries where after.entries[path] != entry {
            Issue.record(
                "changed: \(String(decoding: path, as: UTF8.self)): \(entry) -> \(String(describing: after.entries[path]))"
            )
        }
        // Control: the snapshot does see a one-byte change.
        try writeFile(in: album.path, name: Array("empty.png".utf8), contents: [0])
        #expect(try FolderSnapshot(album.path).entries != after.entries)
    }

    /// Good photos, corrupt and hostile ones of every format, a FIFO named as a photo, names that
    /// are not UTF-8 or hold a newline, an empty file, a link and a subfolder.
    func fillWithHostileFiles(_ album: TemporaryFolder) throws {
        let photos = BabyAlbumProcess.repository + "/Photos"
        for name in ["sunset.png", "duck.png", "balloons.png"] {
            try FileManager.default.copyItem(atPath: photos + "/" + name, toPath: album.file(name))
        }
        let broken = ["xc1n0g08", "xcrn0g04", "xd9n2c08", "xhdn0g08", "xlfn0g04", "xs2n0g01"]
        for name in broken {
            try FileManager.default.copyItem(
                atPath: "\(fixtures)/pngsuite/png/\(name).png", toPath: album.file(name + ".png"))
        }
        for name in ["scan-bomb.jpg", "twelve-bit.jpg", "progressive.jpg"] {
            try FileManager.default.copyItem(atPath: "\(fixtures)/photos/jpeg/\(name)", toPath: album.file(name))
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(fixtures)/photos/jpeg/s420.jpg"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: album.file("half-copied.JPG")))
        let webp = try Data(contentsOf: URL(fileURLWithPath: "\(fixtures)/photos/webp/lossy.webp"))
        try webp.prefix(60).write(to: URL(fileURLWithPath: album.file("cut.webp")))
        #expect(mkfifo(album.file("fifo.png"), 0o644) == 0)
        let duck = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photos + "/duck.png")))
        try writeFile(in: album.path, name: Array("caf".utf8) + [0xE9] + Array(".png".utf8), contents: duck)
        try writeFile(in: album.path, name: Array("evil\nshowing forged.png".utf8), contents: duck)
        try writeFile(in: album.path, name: Array("empty.png".utf8), contents: [])
        #expect(symlink("duck.png", album.file("link-to-duck.png")) == 0)
        try album.makeDirectory("trip")
        try FileManager.default.copyItem(atPath: photos + "/meadow.png", toPath: album.file("trip/meadow.png"))
    }
}

/// Every entry below a folder, by its path as bytes: type, mode, size, modification time and,
/// for regular files, the bytes themselves (`lstat`, so links are compared, not followed).
struct FolderSnapshot {
    struct Entry: Equatable, CustomStringConvertible {
        var mode: UInt32
        var size: Int
        var modified: timespec
        var contents: [UInt8]?

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.mode == rhs.mode && lhs.size == rhs.size && lhs.modified.tv_sec == rhs.modified.tv_sec
                && lhs.modified.tv_nsec == rhs.modified.tv_nsec && lhs.contents == rhs.contents
        }

        var description: String {
            "mode \(String(mode, radix: 8)), \(size) bytes, modified \(modified.tv_sec).\(modified.tv_nsec)"
        }
    }

    private(set) var entries: [[UInt8]: Entry] = [:]

    init(_ root: String) throws {
        try walk(Array(root.utf8))
    }

    private mutating func walk(_ folder: [UInt8]) throws {
        guard let directory = opendir(String(decoding: folder, as: UTF8.self)) else { throw POSIXError(.ENOENT) }
        defer { closedir(directory) }
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let path = folder + [UInt8(ascii: "/")] + name
            var info = stat()
            guard
                (path + [0]).withUnsafeBufferPointer({
                    $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
                }) == 0
            else { throw POSIXError(.EIO) }
            let isRegular = info.st_mode & S_IFMT == S_IFREG
            entries[path] = Entry(
                mode: info.st_mode, size: Int(info.st_size), modified: info.st_mtim,
                contents: isRegular ? try Self.contents(path) : nil)
            if info.st_mode & S_IFMT == S_IFDIR { try walk(path) }
        }
    }

    private static func contents(_ path: [UInt8]) throws -> [UInt8] {
        let fd = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count >= 0 else { throw POSIXError(.EIO) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
