import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// Capture dates read from files the test makes with Pillow: EXIF in JPEG APP1, WebP EXIF and PNG eXIf, PNG tIME before
/// and after the image data, EXIF winning over tIME, an absurd EXIF date, and files with no date
/// (never the file's mtime). Read in the decode's own pass.
@Suite struct CaptureDateFileTests {
    /// Debian's Python, with Pillow (`python3-pil`, in `scripts/install-deps --test`).
    static let python = "/usr/bin/python3"

    static let script = """
        import struct, sys
        from PIL import Image, PngImagePlugin
        folder = sys.argv[1]
        def exif(date, offset=None):
            e = Image.Exif()
            ifd = {0x9003: date}
            if offset: ifd[0x9011] = offset
            e[0x8769] = ifd
            return e.tobytes()
        def time_chunk(after):
            info = PngImagePlugin.PngInfo()
            info.add(b"tIME", struct.pack(">HBBBBB", 2023, 7, 4, 18, 30, 0), after_idat=after)
            return info
        image = Image.new("RGB", (64, 48), (200, 120, 40))
        image.save(folder + "/exif.png", exif=exif("2025:03:12 08:15:30", "+01:00"))
        image.save(folder + "/exif.jpg", exif=exif("2025:12:31 23:59:59", "+05:30"))
        image.save(folder + "/exif.webp", exif=exif("2024:02:29 23:59:59", "-05:00"))
        image.save(folder + "/absurd.jpg", exif=exif("2024:02:31 12:00:00"))
        image.save(folder + "/plain.jpg")
        image.save(folder + "/time-before.png", pnginfo=time_chunk(False))
        image.save(folder + "/time-after.png", pnginfo=time_chunk(True))
        image.save(folder + "/both.png", exif=exif("2025:03:12 08:15:30"), pnginfo=time_chunk(False))
        image.save(folder + "/absurd.png", exif=exif("9999:02:31 00:00:00"), pnginfo=time_chunk(False))
        image.save(folder + "/plain.png")
        image.save(folder + "/plain.webp")
        """

    @discardableResult
    static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func day(_ text: String) -> CivilDate { CivilDate(iso: text)! }

    static let expected: [(name: String, day: CivilDate?, source: CaptureDate.Source?, offset: Int?)] = [
        ("exif.png", day("2025-03-12"), .exif, 60),
        ("exif.jpg", day("2025-12-31"), .exif, 330),
        ("exif.webp", day("2024-02-29"), .exif, -300),
        ("plain.jpg", nil, nil, nil),
        ("time-before.png", day("2023-07-04"), .pngTime, 0),
        ("time-after.png", day("2023-07-04"), .pngTime, 0),
        ("both.png", day("2025-03-12"), .exif, nil),
        ("plain.png", nil, nil, nil),
        ("plain.webp", nil, nil, nil),
    ]

    @Test func datesComeBackWithTheDecode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Self.run(["-c", Self.script, folder.path]) == 0)
        for expected in Self.expected {
            let path = folder.file(expected.name)
            let decoded = try PhotoDecoder.decode(
                PhotoFile(path: path), path: path, to: FrameSize(width: 32, height: 24), scale: .fill)
            for result in [decoded.metadata.captureDate] {
                guard let day = expected.day else {
                    #expect(result == .absent, "\(expected.name): \(result)")
                    continue
                }
                guard case .found(let date) = result else {
                    Issue.record("\(expected.name): \(result)")
                    continue
                }
                #expect(date.date == day, "\(expected.name)")
                #expect(date.source == expected.source, "\(expected.name)")
                #expect(date.offsetMinutes == expected.offset, "\(expected.name)")
            }
        }
    }

    @Test func anAbsurdExifDateIsUnusableAndTIMEDoesNotStandIn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try Self.run(["-c", Self.script, folder.path]) == 0)
        for (name, text) in [("absurd.png", "9999:02:31"), ("absurd.jpg", "2024:02:31")] {
            let path = folder.file(name)
            let decoded = try PhotoDecoder.decode(
                PhotoFile(path: path), path: path, to: FrameSize(width: 32, height: 24), scale: .fill)
            guard case .unusable(let why) = decoded.metadata.captureDate else {
                Issue.record("\(name): \(decoded.metadata.captureDate)")
                continue
            }
            #expect(why.contains(text), "\(name): \(why)")
        }
    }
}
