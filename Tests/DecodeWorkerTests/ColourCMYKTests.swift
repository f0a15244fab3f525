import AlbumDomain
import CColourFixtures
import Foundation
import PhotoCodec
import TestSupport
import Testing

/// CMYK JPEGs with a profile (Ghostscript's SWOP profile, Debian's `libgs-common`) are converted
/// by lcms2 as `jpgicc` converts them, Adobe's inverted samples included; without a usable
/// profile the plain conversion stays.
@Suite struct ColourCMYKTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2)
    static let swop = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// Pillow writes CMYK JPEGs as Photoshop does: an Adobe APP14 marker and inverted samples.
    static let script = """
        import sys
        from PIL import Image
        inks = [(0, 200, 200, 0), (200, 0, 200, 0), (200, 200, 0, 0), (0, 60, 200, 0),
                (150, 0, 50, 30), (30, 60, 90, 20), (0, 0, 0, 160), (180, 40, 0, 0)]
        patch = int(sys.argv[3])
        image = Image.new("CMYK", (patch * 4, patch * 2))
        for i, ink in enumerate(inks):
            x, y = (i % 4) * patch, (i // 4) * patch
            image.paste(ink, (x, y, x + patch, y + patch))
        options = {"quality": 100, "subsampling": 0}
        if sys.argv[2]:
            options["icc_profile"] = open(sys.argv[2], "rb").read()
        image.save(sys.argv[1], **options)
        """

    @Test func aCMYKPhotoWithAProfileIsConvertedLikeJpgicc() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try Self.jpeg(in: folder, "swop", profile: Self.swop)
        let plain = try Self.jpeg(in: folder, "plain", profile: nil)
        let reference = folder.file("reference.jpg")
        try WorkerSupport.run(["/usr/bin/jpgicc", "-t0", "-b", "-q100", tagged, reference])

        let local = try PhotoDecoder.decode(tagged, to: size, scale: .fill)
        let accuracy = ColourTests.meanDifference(local, try PhotoDecoder.decode(reference, to: size, scale: .fill))
        #expect(accuracy.allSatisfy { $0 <= 1.5 }, "against jpgicc: \(accuracy)")
        let shift = ColourTests.meanDifference(local, try PhotoDecoder.decode(plain, to: size, scale: .fill))
        #expect(shift.reduce(0, +) / 3 >= 10, "against the plain CMYK conversion: \(shift)")
        let worker = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == local.pixels)
        #expect(worker.metadata.colourProfile == "Artifex CMYK SWOP Profile")
        #expect(worker.metadata.colourIgnored == nil)
    }

    /// An RGB profile on a CMYK photo is named in one line; the plain conversion stays.
    @Test func anRGBProfileOnACMYKPhotoIsIgnored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let p3 = folder.file("p3.icc")
        try Data(ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)).write(to: URL(fileURLWithPath: p3))
        let tagged = try Self.jpeg(in: folder, "p3", profile: p3)
        let plain = try PhotoDecoder.decode(try Self.jpeg(in: folder, "plain", profile: nil), to: size, scale: .fill)
        let worker = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == plain.pixels)
        #expect(worker.metadata.colourIgnored == "an RGB profile on a CMYK photo", "\(worker.metadata)")
        #expect(try PhotoDecoder.decode(tagged, to: size, scale: .fill).pixels == plain.pixels)
    }

    /// The patches as a CMYK JPEG made by Pillow, tagged with the profile file when given.
    static func jpeg(in folder: TemporaryFolder, _ name: String, profile: String?) throws -> String {
        let path = folder.file(name + ".jpg")
        try WorkerSupport.run(["/usr/bin/python3", "-c", script, path, profile ?? "", String(ColourTests.patch)])
        return path
    }
}
