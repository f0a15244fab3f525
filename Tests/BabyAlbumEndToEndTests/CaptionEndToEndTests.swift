import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// Captions end to end, through the real `babyalbum` writing `--output png:` frames: read back
/// by OCR (Tesseract) on a white sky and a black night, in the right corner for every
/// `--rotate`, and frames without a caption are bit for bit the frames of `--caption none`.
@Suite struct CaptionEndToEndTests {
    /// Photos made with Pillow (`python3-pil`): dated by EXIF (a white sky, a black night), dated
    /// before the birthday, and undated.
    static let script = """
        import sys
        from PIL import Image
        def exif(date):
            e = Image.Exif()
            e[0x8769] = {0x9003: date, 0x9011: "+02:00"}
            return e.tobytes()
        folder = sys.argv[1]
        Image.new("RGB", (800, 450), (250, 250, 250)).save(folder + "/sky.png", exif=exif("2025:05:12 10:30:00"))
        Image.new("RGB", (800, 450), (0, 0, 0)).save(folder + "/night.webp", exif=exif("2025:05:12 22:00:00"))
        Image.new("RGB", (800, 450), (255, 255, 255)).save(folder + "/snow.jpg", exif=exif("2025:05:12 10:30:00"), quality=95)
        Image.new("RGB", (800, 450), (90, 160, 220)).save(folder + "/early.png", exif=exif("2023:06:01 09:00:00"))
        Image.new("RGB", (800, 450), (90, 160, 220)).save(folder + "/plain.png")
        Image.new("RGB", (800, 450), (90, 160, 220)).save(folder + "/absurd.png", exif=exif("2024:02:31 09:00:00"))
        """

    static let mia = ["--name", "Mia", "--birthday", "2024-03-10"]

    /// A folder with the photos, each in a folder of its own (one photo a run).
    final class Album {
        let folder: TemporaryFolder
        init() throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.file("made"), withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", CaptionEndToEndTests.script, folder.file("made")]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "Pillow made the photos")
        }
        deinit { folder.remove() }

        /// The one frame of a run that shows `photo` with `options`; its file's bytes and the log.
        func frame(_ photo: String, size: String, _ options: [String]) throws -> (png: Data, log: String) {
            let run = UUID().uuidString
            let photos = folder.file("photos-" + run)
            let output = folder.file("frames-" + run)
            try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: folder.file("made/" + photo), toPath: photos + "/" + photo)
            let result = try BabyAlbumProcess.run(
                [
                    "--photos", photos, "--output", "png:" + output, "--size", size, "--count", "1",
                    "--transition", "none", "--seed", "1", "--state-dir", "none", "--sticks", "none",
                    "--settings", "/nonexistent", "--scale", "fill",
                ] + options)
            #expect(result.status == 0, "\(result.log)")
            let png = try Data(contentsOf: URL(fileURLWithPath: output + "/frame-0001.png"))
            return (png, result.log)
        }
    }

    @Test(arguments: ["sky.png", "night.webp", "snow.jpg"])
    func aCaptionReadsBackByOCR(_ photo: String) throws {
        let album = try Album()
        let (png, _) = try album.frame(photo, size: "1920x1080", ["--caption", "age+date"] + Self.mia)
        let image = album.folder.file("ocr.png")
        try png.write(to: URL(fileURLWithPath: image))
        let text = try Self.ocr(image)
        for word in ["Mia", "1 year", "2 months", "12 May 2025"] {
            #expect(text.contains(word), "'\(word)' in what Tesseract read: \(text)")
        }
    }

    /// Where the caption is, as the bounding box of the pixels that differ from the frame
    /// without it, for a 640x400 panel: the bottom-right corner of the screen as it hangs.
    @Test(arguments: [("0", "bottom right"), ("90", "top right"), ("180", "top left"), ("270", "bottom left")])
    func theCaptionIsInTheViewersBottomRightCorner(_ rotate: String, panelCorner: String) throws {
        let album = try Album()
        let plain = try album.frame("sky.png", size: "640x400", ["--rotate", rotate])
        let captioned = try album.frame(
            "sky.png", size: "640x400", ["--rotate", rotate, "--caption", "date"] + Self.mia)
        let box = try #require(try Self.differingBox(plain.png, captioned.png, in: album.folder))
        let (width, height) = (640, 400)
        let right = box.minX > width / 2
        let left = box.maxX < width / 2
        let bottom = box.minY > height / 2
        let top = box.maxY < height / 2
        let corner = "\(top ? "top" : bottom ? "bottom" : "middle") \(left ? "left" : right ? "right" : "middle")"
        #expect(corner == panelCorner, "caption pixels in \(box)")
        // Near the edges: within a tenth of the panel of its corner.
        #expect(min(box.minX, width - 1 - box.maxX) < width / 10, "\(box)")
        #expect(min(box.minY, height - 1 - box.maxY) < height / 10, "\(box)")
    }

    @Test func framesWithoutACaptionAreBitIdenticalToCaptionNone() throws {
        let album = try Album()
        for photo in ["plain.png", "early.png", "absurd.png", "sky.png"] {
            let none = try album.frame(photo, size: "640x400", [])
            let noneSaid = try album.frame(photo, size: "640x400", ["--caption", "none"] + Self.mia)
            #expect(none.png == noneSaid.png, "\(photo)")
            guard photo != "sky.png" else { continue }
            // No date, a date before the birthday, an absurd date: no caption at all.
            let age = try album.frame(photo, size: "640x400", ["--caption", "age+date"] + Self.mia)
            #expect(age.png == none.png, "\(photo): \(age.log)")
        }
        // The frame of --caption none is the decoder's frame, pixel for pixel.
        let frame = album.folder.file("none.png")
        try album.frame("sky.png", size: "640x400", []).png.write(to: URL(fileURLWithPath: frame))
        let decoded = try PhotoDecoder.decode(
            album.folder.file("made/sky.png"), to: FrameSize(width: 640, height: 400), scale: .fill)
        #expect(try PNGDecoder.decode(frame).pixels == decoded.pixels)
    }

    @Test func aMissingFontIsOneWarningAndNoCaption() throws {
        let album = try Album()
        let none = try album.frame("sky.png", size: "640x400", [])
        let missing = try album.frame(
            "sky.png", size: "640x400", ["--caption", "date", "--caption-font", "/nonexistent/font.ttf"])
        #expect(missing.png == none.png, "no caption without a font")
        let warnings = missing.log.split(separator: "\n").filter { $0.contains("captions are off") }
        #expect(warnings.count == 1, "\(missing.log)")
        #expect(warnings.first?.contains("/nonexistent/font.ttf") == true, "\(missing.log)")
    }

    /// What Tesseract reads in `image`, on one line.
    static func ocr(_ image: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tesseract")
        process.arguments = [image, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The smallest box holding every pixel that differs between two frames; `nil` when none does.
    static func differingBox(_ a: Data, _ b: Data, in folder: TemporaryFolder) throws -> (
        minX: Int, minY: Int, maxX: Int, maxY: Int
    )? {
        try a.write(to: URL(fileURLWithPath: folder.file("a.png")))
        try b.write(to: URL(fileURLWithPath: folder.file("b.png")))
        let first = try PNGDecoder.decode(folder.file("a.png"))
        let second = try PNGDecoder.decode(folder.file("b.png"))
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for index in first.pixels.indices where first.pixels[index] != second.pixels[index] {
            let (x, y) = (index % first.size.width, index / first.size.width)
            let old = box ?? (x, y, x, y)
            box = (min(old.minX, x), min(old.minY, y), max(old.maxX, x), max(old.maxY, y))
        }
        return box
    }
}
