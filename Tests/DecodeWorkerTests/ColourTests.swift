import AlbumDomain
import CColourFixtures
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// Colour management: JPEGs tagged Display P3 or Adobe RGB are converted to sRGB as lcms2's own
/// `jpgicc` converts them (perceptual, black-point compensation), in the worker and in process
/// alike; sRGB-tagged photos are left bit-identical, a broken profile is ignored.
@Suite struct ColourTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    static let patch = 32
    /// Saturated patches (inside sRGB's gamut once converted, where showing them untransformed
    /// shows most), a skin tone and a sky.
    static let colours: [(UInt8, UInt8, UInt8)] = [
        (200, 40, 40), (40, 180, 60), (40, 60, 200), (50, 170, 170), (170, 50, 170), (190, 180, 40), (230, 150, 120),
        (70, 140, 230),
    ]
    let size = FrameSize(width: patch * 4, height: patch * 2)

    @Test(arguments: [BACOLOUR_FIXTURE_DISPLAY_P3, BACOLOUR_FIXTURE_ADOBE_RGB])
    func aWideGamutPhotoIsConvertedLikeJpgicc(kind: bacolour_fixture) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try Self.jpeg(in: folder, name: "tagged", profile: Self.profile(kind))
        let plain = try Self.jpeg(in: folder, name: "plain", profile: nil)
        let reference = folder.file("reference.jpg")
        try WorkerSupport.run(["/usr/bin/jpgicc", "-t0", "-b", "-q100", tagged, reference])

        let local = try PhotoDecoder.decode(tagged, to: size, scale: .fill)
        let expected = try PhotoDecoder.decode(reference, to: size, scale: .fill)
        let untransformed = try PhotoDecoder.decode(plain, to: size, scale: .fill)
        let accuracy = Self.meanDifference(local, expected)
        #expect(accuracy.allSatisfy { $0 <= 1.5 }, "against jpgicc: \(accuracy)")
        let shift = Self.meanDifference(local, untransformed)
        #expect(shift.reduce(0, +) / 3 >= 10, "against the untransformed photo: \(shift)")

        let worker = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == local.pixels)
        let name = kind == BACOLOUR_FIXTURE_DISPLAY_P3 ? "Display P3" : "Adobe RGB (1998)"
        #expect(worker.metadata.colourProfile == name)
        #expect(worker.metadata.colourIgnored == nil)
    }

    /// A gray profile goes through lcms2's own transform (not the fast path), in the sandbox too.
    @Test func aGrayPhotoWithAGammaProfileIsConvertedLikeJpgicc() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try Self.jpeg(
            in: folder, name: "gray", profile: Self.profile(BACOLOUR_FIXTURE_GRAY_18), options: ["-grayscale"])
        let plain = try Self.jpeg(in: folder, name: "plain", profile: nil, options: ["-grayscale"])
        let reference = folder.file("reference.jpg")
        try WorkerSupport.run(["/usr/bin/jpgicc", "-t0", "-b", "-q100", tagged, reference])
        let worker = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        let expected = try PhotoDecoder.decode(reference, to: size, scale: .fill)
        let accuracy = Self.meanDifference(worker.frame, expected)
        #expect(accuracy.allSatisfy { $0 <= 1.5 }, "against jpgicc: \(accuracy)")
        let shift = Self.meanDifference(worker.frame, try PhotoDecoder.decode(plain, to: size, scale: .fill))
        #expect(shift.reduce(0, +) / 3 >= 10, "against the untransformed photo: \(shift)")
        #expect(try PhotoDecoder.decode(tagged, to: size, scale: .fill).pixels == worker.frame.pixels)
    }

    @Test func anSRGBTaggedPhotoIsBitIdenticalToAnUntaggedOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try Self.jpeg(in: folder, name: "srgb", profile: Self.profile(BACOLOUR_FIXTURE_SRGB))
        let plain = try Self.jpeg(in: folder, name: "plain", profile: nil)
        let request = DecodeRequest(size: size, scale: .fill)
        let untagged = try PhotoDecoder.decode(plain, to: size, scale: .fill)
        #expect(try PhotoDecoder.decode(tagged, to: size, scale: .fill).pixels == untagged.pixels)
        let worker = try WorkerSupport.decode(tagged, pool: pool, request: request)
        #expect(worker.frame.pixels == untagged.pixels)
        #expect(worker.metadata.colourProfile?.contains("sRGB") == true)
        #expect(worker.metadata.colourIgnored == nil)
        let none = try WorkerSupport.decode(plain, pool: pool, request: request)
        #expect(none.frame.pixels == untagged.pixels)
        #expect(none.metadata.colourProfile == nil)
    }

    @Test(arguments: ["truncated", "garbage"])
    func aBrokenProfileIsIgnoredAndThePhotoShown(damage: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let good = Self.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        let broken = damage == "truncated" ? Array(good.prefix(200)) : [UInt8](repeating: 0x5a, count: 3000)
        let tagged = try Self.jpeg(in: folder, name: "broken", profile: broken)
        let plain = try Self.jpeg(in: folder, name: "plain", profile: nil)
        let untagged = try PhotoDecoder.decode(plain, to: size, scale: .fill)
        let worker = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == untagged.pixels)
        #expect(worker.metadata.colourIgnored?.contains("not an ICC profile") == true, "\(worker.metadata)")
        #expect(try PhotoDecoder.decode(tagged, to: size, scale: .fill).pixels == untagged.pixels)
        // One line, through the slideshow's preparer.
        let lines = LockedLines()
        let preparer = SandboxedFramePreparer(scale: .fill, workers: pool) { lines.append($0) }
        let frame = try preparer.prepareFrame(for: Photo(id: PhotoID(tagged)), size: size)
        #expect(frame.pixels == untagged.pixels)
        #expect(lines.all.count == 1)
        #expect(
            lines.all.first?.hasSuffix(
                "ignored (not an ICC profile lcms2 can read (\(broken.count) bytes)); shown as sRGB") == true,
            "\(lines.all)")
    }

    /// The fixture profile's bytes.
    static func profile(_ kind: bacolour_fixture) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16384)
        let length = bytes.withUnsafeMutableBufferPointer { bacolour_fixture_profile(kind, $0.baseAddress, $0.count) }
        return Array(bytes.prefix(length))
    }

    /// A JPEG of the patches (quality 100, no chroma subsampling), tagged with `profile`.
    static func jpeg(
        in folder: TemporaryFolder, name: String, profile: [UInt8]?, options: [String] = []
    ) throws -> String {
        let ppm = folder.file(name + ".ppm")
        try Data(patches()).write(to: URL(fileURLWithPath: ppm))
        var arguments = ["/usr/bin/cjpeg", "-quality", "100", "-sample", "1x1"] + options
        if let profile {
            let icc = folder.file(name + ".icc")
            try Data(profile).write(to: URL(fileURLWithPath: icc))
            arguments += ["-icc", icc]
        }
        let jpeg = folder.file(name + ".jpg")
        try WorkerSupport.run(arguments + ["-outfile", jpeg, ppm])
        return jpeg
    }

    /// Four by two patches as a binary PPM.
    static func patches() -> [UInt8] {
        let width = patch * 4
        let height = patch * 2
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                let colour = colours[(y / patch) * 4 + x / patch]
                bytes += [colour.0, colour.1, colour.2]
            }
        }
        return bytes
    }

    /// Checks `photo` against lcms2: decoded in process within 1.5 a channel of `jpgicc`'s
    /// conversion of `jpeg` (the same patches carrying the same profile), at least 10 away from
    /// `plain` (the patches untransformed), and the worker's frame the same pixels. Returns the
    /// worker's decode for the caller's own checks of its metadata.
    static func expectConvertedLikeJpgicc(
        _ photo: String, jpeg: String, plain: String, in folder: TemporaryFolder, size: FrameSize,
        pool: DecodeWorkerPool
    ) throws -> WorkerDecode {
        let reference = folder.file("reference.jpg")
        try WorkerSupport.run(["/usr/bin/jpgicc", "-t0", "-b", "-q100", jpeg, reference])
        let local = try PhotoDecoder.decode(photo, to: size, scale: .fill)
        let accuracy = ColourTests.meanDifference(local, try PhotoDecoder.decode(reference, to: size, scale: .fill))
        #expect(accuracy.allSatisfy { $0 <= 1.5 }, "against jpgicc: \(accuracy)")
        let shift = ColourTests.meanDifference(local, try PhotoDecoder.decode(plain, to: size, scale: .fill))
        #expect(shift.reduce(0, +) / 3 >= 10, "against the untransformed photo: \(shift)")
        let worker = try WorkerSupport.decode(photo, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == local.pixels)
        return worker
    }

    /// The mean absolute difference per channel (red, green, blue) over the patches' insides
    /// (8 pixels in from their edges, clear of JPEG's blocks across two colours).
    static func meanDifference(_ a: Frame, _ b: Frame) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        var count = 0.0
        for y in 0..<a.size.height where (8..<(patch - 8)).contains(y % patch) {
            for x in 0..<a.size.width where (8..<(patch - 8)).contains(x % patch) {
                let p = a.pixels[y * a.size.width + x]
                let q = b.pixels[y * b.size.width + x]
                for (channel, shift) in [16, 8, 0].enumerated() {
                    let u = Int((p >> UInt32(shift)) & 0xff)
                    let v = Int((q >> UInt32(shift)) & 0xff)
                    sums[channel] += Double(abs(u - v))
                }
                count += 1
            }
        }
        return sums.map { $0 / count }
    }
}

/// Lines collected from a `@Sendable` closure.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var all: [String] { lock.withLock { lines } }
}
