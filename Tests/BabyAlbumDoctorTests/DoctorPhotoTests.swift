import AlbumDomain
import BabyAlbumApp
import EvdevInput
import FolderRepository
import Foundation
import PhotoCodec
import TestSupport
import Testing

@testable import BabyAlbumDoctor

#if canImport(Glibc)
    import Glibc
#endif

/// `babyalbum doctor`'s photo check on real files, decoded by the real codecs.
@Suite("Doctor: the photo folder")
struct DoctorPhotoTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let png = repository + "/Photos/duck.png"
    static let jpeg = repository + "/Tests/PhotoCodecTests/Fixtures/photos/jpeg/s420.jpg"

    func options(_ folder: String, limits: FolderScanLimits = .standard) -> DoctorOptions {
        var options = DoctorOptions(
            photos: folder, output: .memory, exitButton: .default, limits: PhotoLimits(), headersOnly: false)
        options.folderLimits = limits
        return options
    }

    /// Copies `source` to `folder/name`, where `name` is bytes.
    func copy(_ source: String, to folder: String, name: [UInt8]) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        try writeFile(in: folder, name: name, contents: Array(data))
    }

    @Test("every photo name the slideshow takes is checked: not UTF-8, NFC and NFD twins, upper-case extensions")
    func byteNamesAndExtensions() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let names: [[UInt8]] = [
            Array("plain.png".utf8), Array("caf\u{E9}.png".utf8), Array("cafe\u{301}.png".utf8),
            Array("caf".utf8) + [0xE9] + Array(".png".utf8),
        ]
        for name in names { try copy(Self.png, to: temp.path, name: name) }
        try copy(Self.jpeg, to: temp.path, name: Array("IMG_0001.JPG".utf8))
        try copy(Self.jpeg, to: temp.path, name: Array("IMG_0002.Jpeg".utf8))
        let section = DoctorProbes.photos(options(temp.path))
        #expect(section.valid == 6, "\(section)")
        #expect(section.skipped.isEmpty, "\(section.skipped)")
        #expect(section.problem == nil)
    }

    @Test("a name with a newline or an escape sequence cannot forge a line of the report, in text or JSON")
    func namesAreEscaped() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try copy(Self.png, to: temp.path, name: Array("good.png".utf8))
        try temp.write("evil\n  skipped forged.png: all is well\u{1B}[2J.txt")
        try temp.write("gnp.\u{202E}right-to-left.txt")
        try copy(Self.png, to: temp.path, name: Array("bad".utf8) + [0xFF] + Array(".txt".utf8))
        let report = DoctorReport(
            display: DoctorDisplaySection(required: false, cards: []),
            input: DoctorInputSection(
                required: false, exitKeys: ["KEY_POWER"], exitDevice: nil, exitHoldSeconds: 1, devices: [],
                heldByRunningFrame: false),
            photos: DoctorProbes.photos(options(temp.path)),
            service: DoctorServiceSection(
                unit: "babyalbum.service", systemdRunning: false, unitFile: nil, enabled: nil, active: nil,
                userExists: false, userMissingGroups: []))
        let lines = report.text.split(separator: "\n")
        #expect(
            lines.contains {
                $0.hasPrefix("  skipped \(temp.path)/evil\\n  skipped forged.png: all is well\\x1B[2J.txt:")
            })
        #expect(!lines.contains { $0.hasPrefix("  skipped forged.png") }, "no forged line")
        #expect(!report.text.contains("\u{1B}"), "no escape sequence reaches the terminal")
        // A right-to-left override would show the name reversed (and the rest of its line).
        #expect(!report.text.unicodeScalars.contains("\u{202E}"), "no bidirectional control reaches the terminal")
        #expect(lines.contains { $0.hasPrefix("  skipped \(temp.path)/gnp.\\u{202E}right-to-left.txt:") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  skipped \(temp.path)/bad\\xFF.txt: not a photo name") })
        let json = String(decoding: try JSONEncoder().encode(report.photos), as: UTF8.self)
        #expect(json.contains(#"evil\\n  skipped forged.png: all is well\\x1B[2J.txt"#), "\(json)")
        #expect(json.contains(#"bad\\xFF.txt"#))
    }

    @Test("HEIC is counted as shown, a broken HEIC or AVIF as broken; a content that disagrees with its name is named")
    func formatsByContent() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        func isoMedia(_ brand: String) -> Data {
            let body = Array(brand.utf8) + [0, 0, 0, 0] + Array("mif1".utf8) + Array(brand.utf8)
            return Data(
                [0, 0, 0, UInt8(8 + body.count)] + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("meta".utf8))
        }
        try isoMedia("heic").write(to: URL(fileURLWithPath: temp.file("IMG_0003.HEIC")))
        try isoMedia("avif").write(to: URL(fileURLWithPath: temp.file("still.avif")))
        try copy(Self.jpeg, to: temp.path, name: Array("really-a-jpeg.png".utf8))
        try copy(Self.png, to: temp.path, name: Array("good.png".utf8))
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "80", "-o", temp.file("IMG_0005.HEIC"), Self.png]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: temp.file("broken.jpg")))
        let section = DoctorProbes.photos(options(temp.path))
        #expect(section.valid == 3, "the PNG, the HEIC and the JPEG named .png (shown by its content)")
        #expect(section.notDecoded.isEmpty)
        let broken = [temp.file("IMG_0003.HEIC"), temp.file("broken.jpg"), temp.file("still.avif")]
        #expect(section.skipped.map(\.path).sorted() == broken, "the ftyp-only files are broken")
        #expect(section.mismatched.map(\.path) == [temp.file("really-a-jpeg.png")])
        #expect(section.mismatched.first?.reason.contains("JPEG") == true)
        #expect(!section.warnings.contains { $0.contains("HEIC/HEIF/AVIF") })
    }

    @Test("doctor walks as the watcher does: the caps on folders and photos are reported")
    func capsAreReported() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for folder in 0..<4 {
            try copy(Self.png, to: try makeFolder(temp, "photos/d\(folder)"), name: Array("p.png".utf8))
        }
        let generous = DoctorProbes.photos(options(temp.file("photos")))
        #expect(generous.valid == 4, "positive control")
        #expect(generous.warnings.isEmpty)
        let capped = DoctorProbes.photos(options(temp.file("photos"), limits: FolderScanLimits(maxFolders: 3)))
        #expect(capped.valid == 2)
        #expect(capped.skipped.map(\.path) == [temp.file("photos/d2"), temp.file("photos/d3")])
        #expect(capped.warnings.contains { $0.contains("more than 3 folders") }, "\(capped.warnings)")
    }

    func makeFolder(_ temp: TemporaryFolder, _ relative: String) throws -> String {
        try temp.makeDirectory(relative)
        return temp.file(relative)
    }
}

@Suite("Doctor: a USB stick's photo count")
struct DoctorStickCountTests {
    @Test("Counts what the slideshow would show: subfolders in, HEIC in, hidden names and a Mac's ._ files out")
    func stickPhotos() throws {
        let stick = try TemporaryFolder()
        defer { stick.remove() }
        try stick.makeDirectory("trip")
        try stick.makeDirectory(".Trashes")
        for file in ["a.JPG", "trip/b.png", "notes.txt", "._a.JPG", ".Trashes/c.jpg", "d.heic", "e.jpg.part"] {
            #expect(FileManager.default.createFile(atPath: stick.file(file), contents: Data()))
        }
        #expect(DoctorProbes.shownPhotoCount(in: stick.path) == 3)
    }
}

/// `doctor` counts the photos with a usable date for captions, decoding or reading headers.
@Suite("Doctor: photos with a date")
struct DoctorDatedPhotoTests {
    static let script = """
        import sys
        import struct
        from PIL import Image, PngImagePlugin
        def time_chunk():
            info = PngImagePlugin.PngInfo()
            info.add(b"tIME", struct.pack(">HBBBBB", 2023, 7, 4, 18, 30, 0))
            return info
        def exif(date):
            e = Image.Exif()
            e[0x8769] = {0x9003: date}
            return e.tobytes()
        folder = sys.argv[1]
        image = Image.new("RGB", (40, 30), (10, 200, 90))
        image.save(folder + "/dated.png", exif=exif("2025:03:12 08:15:30"))
        image.save(folder + "/dated-time.png", pnginfo=time_chunk())
        image.save(folder + "/dated.jpg", exif=exif("2025:01:01 08:00:00"))
        image.save(folder + "/dated.webp", exif=exif("2024:02:29 23:59:59"))
        image.save(folder + "/absurd.png", exif=exif("0000:00:00 00:00:00"))
        image.save(folder + "/undated.png")
        """

    @Test(arguments: [false, true])
    func countsPhotosWithAUsableDate(headersOnly: Bool) throws {
        let section = try photoSection(madeBy: Self.script, headersOnly: headersOnly)
        #expect(section.valid == 6, "\(section)")
        // Dates are read when photos are decoded; --quick reads headers only and says nothing of them.
        #expect(section.dated == (headersOnly ? 0 : 4), "\(section)")
        let line = "  4 of them with a date for captions (EXIF or PNG tIME)"
        #expect(section.textLines.contains(line) == !headersOnly, "\(section.textLines)")
    }
}

/// `doctor` counts the photos by their colour profile's description, when it decodes them.
@Suite("Doctor: colour profiles")
struct DoctorColourProfileTests {
    /// Ghostscript's Adobe RGB-compatible profile (Debian's `libgs-common`) in two JPEGs, lcms2's
    /// sRGB in a PNG, cHRM and gAMA in another, a broken profile, and no profile.
    static let script = """
        import io
        import struct
        import sys
        from PIL import Image, ImageCms, PngImagePlugin
        folder = sys.argv[1]
        image = Image.new("RGB", (40, 30), (200, 40, 40))
        a98 = open("/usr/share/color/icc/ghostscript/a98.icc", "rb").read()
        image.save(folder + "/a.jpg", icc_profile=a98)
        image.save(folder + "/b.jpg", icc_profile=a98)
        srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        image.save(folder + "/srgb.png", icc_profile=srgb)
        info = PngImagePlugin.PngInfo()
        info.add(b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000))
        info.add(b"gAMA", struct.pack(">I", 45471))
        image.save(folder + "/chrm.png", pnginfo=info)
        image.save(folder + "/broken.jpg", icc_profile=b"\\x5a" * 600)
        image.save(folder + "/plain.jpg")
        """

    @Test(arguments: [false, true])
    func countsPhotosByProfile(headersOnly: Bool) throws {
        let section = try photoSection(madeBy: Self.script, headersOnly: headersOnly)
        #expect(section.valid == 6, "\(section)")
        let expected = [
            "Artifex Software A98 ICC Profile": 2, "sRGB built-in": 1, "PNG cHRM, gamma 2.20": 1,
            "(no description) (ignored)": 1,
        ]
        // Profiles are read when photos are decoded; --quick reads headers only.
        #expect(section.colourProfiles == (headersOnly ? [:] : expected), "\(section)")
        let line =
            "  colour profiles: 2 Artifex Software A98 ICC Profile, 1 (no description) (ignored), "
            + "1 PNG cHRM, gamma 2.20, 1 sRGB built-in"
        #expect(section.textLines.contains(line) == !headersOnly, "\(section.textLines)")
    }
}

/// The photos section of `doctor` for a folder of photos that `script` (Python, with the folder
/// as its argument) makes.
private func photoSection(madeBy script: String, headersOnly: Bool) throws -> DoctorPhotoSection {
    let temp = try TemporaryFolder()
    defer { temp.remove() }
    try runProgram(["/usr/bin/python3", "-c", script, temp.path])
    let options = DoctorOptions(
        photos: temp.path, output: .memory, exitButton: .default, limits: PhotoLimits(), headersOnly: headersOnly)
    return DoctorProbes.photos(options)
}

/// The photos the decode sandbox refused, in the doctor's report.
@Suite("Doctor: the decode sandbox's refusals")
struct DoctorSandboxRefusalTests {
    @Test func refusedPhotosAreAProblemNamingTheCallAndTheCount() {
        var section = DoctorPhotoSection(folder: "/p", valid: 3, skipped: [], headersOnly: false, failure: nil)
        section.noteSandboxRefusals(["system call 56 (openat)": 4, "system call 198 (socket)": 1])
        #expect(
            section.problem
                == "the decode sandbox refuses 1 photo: system call 198 (socket); the decode sandbox refuses 4 photos: system call 56 (openat)"
        )
    }

    @Test func noRefusalLeavesTheSectionAsItWas() {
        var section = DoctorPhotoSection(folder: "/p", valid: 3, skipped: [], headersOnly: false, failure: nil)
        let before = section
        section.noteSandboxRefusals([:])
        #expect(section == before)
    }
}
