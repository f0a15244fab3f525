import AlbumDomain
import CColourFixtures
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// A HEIC's EXIF capture date and its `colr` colour description (an ICC profile or an nclx), read
/// in the decode's own pass, in the worker and in process alike. The files are made here with
/// pillow-heif (Tests/HEIF/heif_fixtures.py); the colour references are Pillow's ImageCms (lcms2,
/// perceptual, black-point compensation) applied to pillow-heif's decode.
@Suite struct HEIFMetadataTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2)

    static func make(_ arguments: [String]) throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: HEIFFixtures.referencePython),
            "pillow-heif: run scripts/install-deps --test")
        try WorkerSupport.run([HEIFFixtures.referencePython, HEIFFixtures.script] + arguments)
    }

    /// Both decodes of `path`: in a worker, and in this process.
    func decodeBoth(_ path: String, size: FrameSize) throws -> (worker: WorkerDecode, local: DecodedPhoto) {
        let worker = try WorkerSupport.decode(path, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        let local = try PhotoDecoder.decode(PhotoFile(path: path), path: path, to: size, scale: .fill)
        return (worker, local)
    }

    @Test func theExifCaptureDateComesBackWithTheDecode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.make(["dated", folder.file("dated.heic"), "2024:02:29 23:59:59", "+05:30"])
        let (worker, local) = try decodeBoth(folder.file("dated.heic"), size: FrameSize(width: 24, height: 32))
        for metadata in [worker.metadata, local.metadata] {
            guard case .found(let date) = metadata.captureDate else {
                Issue.record("\(metadata.captureDate)")
                continue
            }
            #expect(date.date == CivilDate(iso: "2024-02-29"))
            #expect(date.hour == 23 && date.minute == 59 && date.second == 59)
            #expect(date.offsetMinutes == 330)
            #expect(date.source == .exif)
        }
        // The EXIF Orientation (6) describes the file's `irot`: applied once, by libheif.
        for header in [worker.header, local.header] {
            #expect(header.orientation == 1 && header.width == 48 && header.height == 64, "\(header)")
        }
        #expect(worker.frame.pixels == local.frame.pixels)
    }

    @Test func aHEICWithoutADateOrWithAnAbsurdOneHasNone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.make(["dated", folder.file("plain.heic")])
        try Self.make(["dated", folder.file("bad-offset.heic"), "2025:03:12 08:15:30", "--bad-offset"])
        // An Exif item whose offset points past its end: no EXIF, the photo still shown.
        let broken = try decodeBoth(folder.file("bad-offset.heic"), size: FrameSize(width: 24, height: 32))
        #expect(broken.worker.metadata.exif == nil && broken.local.metadata.exif == nil)
        #expect(broken.worker.metadata.captureDate == .absent)
        try Self.make(["dated", folder.file("absurd.heic"), "2023:02:31 12:00:00"])
        let plain = try decodeBoth(folder.file("plain.heic"), size: FrameSize(width: 24, height: 32))
        #expect(plain.worker.metadata.captureDate == .absent)
        #expect(plain.local.metadata.captureDate == .absent)
        let absurd = try decodeBoth(folder.file("absurd.heic"), size: FrameSize(width: 24, height: 32))
        for result in [absurd.worker.metadata.captureDate, absurd.local.metadata.captureDate] {
            guard case .unusable(let why) = result else {
                Issue.record("\(result)")
                continue
            }
            #expect(why.contains("2023:02:31"), "\(why)")
        }
    }

    /// The patches as HEICs: `srgb.heic` (pillow-heif's nclx 1/13), the same file with the nclx
    /// made Display P3 (12/13), unspecified (2/2), HDR PQ (9/16) or BT.2020 with SMPTE ST 428-1's
    /// transfer (9/17, which is not converted), or its `colr` renamed away,
    /// and one tagged with a Display P3 ICC profile. Returns the P3 profile's path.
    static func patchFiles(in folder: TemporaryFolder) throws -> String {
        let ppm = folder.file("patches.ppm")
        try Data(ColourTests.patches()).write(to: URL(fileURLWithPath: ppm))
        let icc = folder.file("p3.icc")
        try Data(ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)).write(to: URL(fileURLWithPath: icc))
        try make(["patches", ppm, folder.file("srgb.heic")])
        try make(["patches", ppm, folder.file("nclx-p3.heic"), "--nclx", "12", "13"])
        try make(["patches", ppm, folder.file("unspecified.heic"), "--nclx", "2", "2"])
        try make(["patches", ppm, folder.file("pq.heic"), "--nclx", "9", "16"])
        try make(["patches", ppm, folder.file("st428.heic"), "--nclx", "9", "17"])
        try make(["patches", ppm, folder.file("untagged.heic"), "--no-colr"])
        try make(["patches", ppm, folder.file("icc-p3.heic"), "--icc", icc])
        return icc
    }

    /// ImageCms's conversion of pillow-heif's decode of `path` from `profile` to sRGB.
    func reference(_ path: String, profile: String) throws -> Frame {
        let out = path + ".srgb.rgb"
        try Self.make(["srgb-reference", path, profile, "\(size.width)", "\(size.height)", out])
        return try WorkerSupport.frame(rgbFile: out, size: size)
    }

    @Test(arguments: [("icc-p3.heic", "Display P3"), ("nclx-p3.heic", "Display P3 (nclx)")])
    func aDisplayP3HEICIsConvertedLikeImageCms(name: String, profile: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let icc = try Self.patchFiles(in: folder)
        let (worker, local) = try decodeBoth(folder.file(name), size: size)
        let accuracy = ColourTests.meanDifference(worker.frame, try reference(folder.file(name), profile: icc))
        #expect(accuracy.allSatisfy { $0 <= 1.5 }, "\(name) against ImageCms: \(accuracy)")
        let untransformed = try decodeBoth(folder.file("untagged.heic"), size: size).worker.frame
        let shift = ColourTests.meanDifference(worker.frame, untransformed)
        #expect(shift.reduce(0, +) / 3 >= 10, "\(name) against the untransformed photo: \(shift)")
        #expect(worker.frame.pixels == local.frame.pixels)
        #expect(worker.metadata.colourProfile == profile)
        #expect(local.metadata.colourProfile == profile)
        #expect(worker.metadata.colourIgnored == nil)
    }

    /// An sRGB nclx, an unspecified one and none at all give the same bits; a transfer that is not
    /// converted (SMPTE ST 428-1) is ignored with its reason and shown as sRGB; an HDR PQ one is
    /// converted (Tests/AVIF/conformance.py compares it with a reference of its own).
    @Test func sRGBAndUntaggedHEICsAreBitIdentical() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.patchFiles(in: folder)
        let untagged = try decodeBoth(folder.file("untagged.heic"), size: size)
        #expect(untagged.worker.frame.pixels == untagged.local.frame.pixels)
        #expect(untagged.worker.metadata.colourProfile == nil)
        let expected: [(String, String?)] = [
            ("srgb.heic", "sRGB (nclx)"), ("unspecified.heic", nil), ("st428.heic", "nclx 9/17"),
        ]
        for (name, profile) in expected {
            let (worker, local) = try decodeBoth(folder.file(name), size: size)
            #expect(worker.frame.pixels == untagged.worker.frame.pixels, "\(name)")
            #expect(local.frame.pixels == untagged.worker.frame.pixels, "\(name)")
            #expect(worker.metadata.colourProfile == profile, "\(name)")
            #expect(local.metadata.colourProfile == profile, "\(name)")
        }
        let st428 = try decodeBoth(folder.file("st428.heic"), size: size).worker.metadata
        #expect(st428.colourIgnored == "nclx transfer characteristics 17 are not converted")
        let pq = try decodeBoth(folder.file("pq.heic"), size: size)
        #expect(pq.worker.metadata.colourProfile == "BT.2020, PQ (nclx)")
        #expect(pq.worker.metadata.colourIgnored == nil)
        #expect(pq.worker.frame.pixels != untagged.worker.frame.pixels)
        #expect(pq.worker.frame.pixels == pq.local.frame.pixels)
    }
}
