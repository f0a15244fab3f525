import Foundation
import TestSupport
import Testing

/// `babyalbum doctor` over the issue 39 files (a HEIC and an AVIF grid that repeat one tile, a
/// JPEG and a PNG with a 2,000- and a 30,000-element ICC profile), made here by the repository's
/// scripts: it decodes them in the slideshow's confined worker, says what the slideshow does
/// with each, and takes well under the 99.6 s it once took.
@Suite struct DoctorBombEndToEndTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    static let heifPython = "/var/cache/babyalbum/venv-heif/bin/python"

    /// The folder of hostile files, and one good photo.
    static func makePhotos(in folder: TemporaryFolder) throws -> String {
        let photos = folder.file("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let python = FileManager.default.isExecutableFile(atPath: heifPython) ? heifPython : "/usr/bin/python3"
        let heif = tests + "/HEIF/heif_fixtures.py"
        try runProgram([python, heif, "photo", folder.file("tile.png"), "800", "600"])
        let bomb = ["100", "100", "640", "480", "--tile-ispe", "6", "4"]
        try runProgram([python, heif, "bomb-grid", folder.file("tile.png"), photos + "/grid.heic"] + bomb)
        try runProgram([python, heif, "bomb-grid", folder.file("tile.png"), photos + "/grid.avif"] + bomb + ["--avif"])
        for (elements, name) in [("2000", "i_mpet_2k.jpg"), ("30000", "i_mpet_30k.png")] {
            let icc = folder.file(elements + ".icc")
            try runProgram(["/usr/bin/python3", tests + "/ICC/icc_fixtures.py", "mpet", elements, icc])
            let save = "from PIL import Image; Image.new('RGB', (64, 48), (9, 99, 199)).save("
            try runProgram([python, "-c", save + "'\(photos)/\(name)', icc_profile=open('\(icc)', 'rb').read())"])
        }
        try runProgram([python, "-c", "from PIL import Image; Image.new('RGB', (64, 48)).save('\(photos)/good.jpg')"])
        return photos
    }

    @Test func theDoctorSaysWhatTheSlideshowDoesAndIsQuick() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photos = try Self.makePhotos(in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BabyAlbumProcess.executable)
        process.arguments = ["doctor", "--photos", photos, "--settings-file", "/nonexistent"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(text.contains("3 valid photo(s), 2 skipped"), "\(text)")
        for name in ["grid.heic", "grid.avif"] {
            #expect(
                text.contains("skipped \(photos)/\(name): HEIF grid of 10000 tiles refers to the same tile"), "\(text)")
        }
        // Shown as sRGB by the slideshow, counted as valid with their profile ignored.
        #expect(text.contains("colour profiles: 2 (no description) (ignored)"), "\(text)")
    }
}
