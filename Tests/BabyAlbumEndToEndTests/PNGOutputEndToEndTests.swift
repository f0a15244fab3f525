import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// `--output png:DIR`: frames are written whole or not at all, a frame that cannot be written
/// fails the process with a clear line, and an output folder inside the photo folder is refused.
@Suite struct PNGOutputEndToEndTests {
    static let photos = BabyAlbumProcess.repository + "/Photos"

    @Test func anOutputFolderInsideThePhotoFolderIsAUsageError() throws {
        let album = try TemporaryFolder()
        defer { album.remove() }
        try FileManager.default.copyItem(atPath: Self.photos + "/duck.png", toPath: album.file("duck.png"))
        let inside = try BabyAlbumProcess.run(
            ["--photos", album.path, "--output", "png:" + album.path + "/frames", "--count", "1"])
        #expect(inside.status == 64, "\(inside.log)")
        #expect(inside.log.contains("inside the photo folder"), "\(inside.log)")
        let itself = try BabyAlbumProcess.run([
            "--photos", album.path, "--output", "png:" + album.path + "/.", "--count", "1",
        ])
        #expect(itself.status == 64, "\(itself.log)")
        // The positive control: a folder beside it is fine.
        let beside = try TemporaryFolder()
        defer { beside.remove() }
        let result = try BabyAlbumProcess.run([
            "--photos", album.path, "--output", "png:" + beside.path, "--count", "1",
        ])
        #expect(result.status == 0, "\(result.log)")
        #expect(beside.files() == ["frame-0001.png"])
    }

    /// Runs babyalbum writing into a 64 KiB tmpfs (a disk that fills during the first photo's
    /// frame) in a private mount namespace, then copies out whatever the folder holds.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs /usr/bin/unshare"))
    func aFrameThatCannotBeWrittenLeavesNoPartialFileAndFailsTheProcess() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let script = """
            mkdir "$1/full" "$1/copied" && mount -t tmpfs -o size=64k babyalbum-full "$1/full" || exit 99
            "$2" --photos "$3" --output "png:$1/full" --size 1920x1080 --count 3 --interval 0.1 --seed 1 \\
                --state-dir none --transition none
            echo "status=$?"
            cp -a "$1/full/." "$1/copied/"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments =
            (getuid() == 0 ? ["--mount"] : ["--map-root-user", "--mount"])
            + ["sh", "-c", script, "sh", output.path, BabyAlbumProcess.executable, Self.photos]
        var environment = ProcessInfo.processInfo.environment
        environment["BABYALBUM_TEST_FAST_INTERVAL"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the namespace and the tmpfs: \(text)")
        let status = text.split(separator: "\n").first { $0.hasPrefix("status=") }.map { String($0.dropFirst(7)) }
        #expect(status != nil && status != "0", "the process fails, so the service restarts it: \(text)")
        #expect(text.contains("No space left on device"), "the reason is logged: \(text)")
        let copied = output.path + "/copied"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: copied)) ?? []
        #expect(files.allSatisfy { $0.hasPrefix("frame-") }, "no temporary file is left: \(files)")
        for name in files {
            #expect(throws: Never.self, "\(name) is a whole PNG") { _ = try PNGDecoder.decode(copied + "/" + name) }
        }
    }
}
