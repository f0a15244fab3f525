import AlbumDomain
import CColour
import CColourFixtures
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
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
        if sys.argv[4] == "ink":
            # Samples that are the ink itself: inverted for Pillow, without the Adobe marker.
            image = image.point(lambda v: 255 - v)
        image.save(sys.argv[1], **options)
        if sys.argv[4] == "ink":
            data = open(sys.argv[1], "rb").read()
            at = 2
            while data[at + 1] != 0xDA:
                length = data[at + 2] << 8 | data[at + 3]
                if data[at + 1] == 0xEE:
                    data = data[:at] + data[at + 2 + length:]
                else:
                    at += 2 + length
            open(sys.argv[1], "wb").write(data)
        """

    /// Adobe's inverted samples (as Photoshop and Pillow write them) and samples that are the ink.
    @Test(arguments: ["adobe", "ink"])
    func aCMYKPhotoWithAProfileIsConvertedLikeJpgicc(samples: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try Self.jpeg(in: folder, "swop", profile: Self.swop, samples: samples)
        let plain = try Self.jpeg(in: folder, "plain", profile: nil)
        // Against jpgicc's conversion of the photo itself, and the plain CMYK conversion.
        let worker = try ColourTests.expectConvertedLikeJpgicc(
            tagged, jpeg: tagged, plain: plain, in: folder, size: size, pool: pool)
        #expect(worker.metadata.colourProfile == "Artifex CMYK SWOP Profile")
        #expect(worker.metadata.colourIgnored == nil)
        guard samples == "ink" else { return }
        let adobe = try Self.jpeg(in: folder, "adobe", profile: Self.swop)
        let same = ColourTests.meanDifference(worker.frame, try PhotoDecoder.decode(adobe, to: size, scale: .fill))
        #expect(same.allSatisfy { $0 <= 0.5 }, "the same inks stored inverted, with Adobe's marker: \(same)")
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

    /// Four CMYK decodes at once hold every cache entry: a fifth gets a transform of its own, and
    /// a frame is still converted (with a transform made for it alone), as with a free cache.
    @Test func cmykDecodesHoldingTheCacheLeaveOthersConverted() throws {
        let files = [Self.swop, "/usr/share/color/icc/ghostscript/ps_cmyk.icc"]
        var profiles = try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        var copy = profiles[1]
        copy[35] ^= 1  // another second in the header's date: another profile to the cache
        profiles.append(copy)
        let ink: [UInt8] = [0, 200, 200, 0, 200, 0, 200, 0]
        var handles: [OpaquePointer] = []
        var rows: [[UInt8]] = []
        for profile in profiles {
            for inverted: Int32 in [0, 1] where handles.count < 5 {
                var outcome = bacolour_outcome()
                let handle = profile.withUnsafeBufferPointer {
                    bacolour_cmyk_open($0.baseAddress, $0.count, inverted, &outcome)
                }
                #expect(outcome.result == BACOLOUR_CONVERTED)
                guard let handle else { continue }
                var rgb = [UInt8](repeating: 0, count: 6)
                bacolour_cmyk_row(handle, ink, &rgb, 2)
                handles.append(handle)
                rows.append(rgb)
            }
        }
        #expect(handles.count == 5)
        #expect(rows[4] == rows[2], "the fifth, made apart, converts as the cached one")
        #expect(rows[0] != rows[2])
        let held = Self.convertedP3Frame()
        for handle in handles { bacolour_cmyk_close(handle) }
        let free = Self.convertedP3Frame()
        #expect(held == free)
        #expect(free != Self.frame)
    }

    static let frame: [UInt32] = [0xc8_2828, 0x28_b43c, 0x28_3cc8, 0x32_aaaa]

    /// `frame` converted from Display P3 to sRGB.
    static func convertedP3Frame() -> [UInt32] {
        var pixels = frame
        let profile = ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        let outcome = profile.withUnsafeBufferPointer { icc in
            pixels.withUnsafeMutableBufferPointer {
                bacolour_to_srgb(icc.baseAddress, icc.count, $0.baseAddress, 4, 1, 4)
            }
        }
        #expect(outcome.result == BACOLOUR_CONVERTED)
        return pixels
    }

    /// The patches as a CMYK JPEG made by Pillow, tagged with the profile file when given; `samples`
    /// "ink" stores the ink itself, without Adobe's marker.
    static func jpeg(
        in folder: TemporaryFolder, _ name: String, profile: String?, samples: String = "adobe"
    ) throws -> String {
        let path = folder.file(name + ".jpg")
        let arguments = [path, profile ?? "", String(ColourTests.patch), samples]
        try WorkerSupport.run(["/usr/bin/python3", "-c", script] + arguments)
        return path
    }
}
