import AlbumDomain
import CColourFixtures
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// PNG's other colour chunks: `cHRM` with `gAMA` becomes a profile converted like an `iCCP` one,
/// `cICP` is converted as a HEIF's nclx, in the PNG specification's order (cICP, iCCP, sRGB, cHRM
/// and gAMA); sRGB's own values, `gAMA` alone and damaged chunks leave the photo as stored.
@Suite struct ColourChunkTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2)

    /// Adobe RGB (1998)'s chromaticities (white, red, green, blue), in cHRM's units of 1e-5.
    static let adobeChromaticities: [UInt32] = [31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000]
    static let srgbChromaticities: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]

    @Test func cHRMAndGAMAAreConvertedLikeJpgiccWithTheSameProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Adobe RGB's gamma 563/256, as gAMA's exponent 256/563.
        let png = try Self.png(in: folder, "adobe", Self.cHRM(Self.adobeChromaticities) + Self.gAMA(45471))
        let plain = try ColourPNGTests.png(in: folder, name: "plain", iccp: nil)
        let jpeg = try ColourTests.jpeg(
            in: folder, name: "adobe", profile: ColourTests.profile(BACOLOUR_FIXTURE_ADOBE_RGB))
        let worker = try ColourTests.expectConvertedLikeJpgicc(
            png, jpeg: jpeg, plain: plain, in: folder, size: size, pool: pool)
        #expect(worker.metadata.colourProfile == "PNG cHRM, gamma 2.20")
        #expect(worker.metadata.colourIgnored == nil)
        // One line in the log names the profile, through the slideshow's preparer.
        let notes = LockedLines()
        let warnings = LockedLines()
        let preparer = SandboxedFramePreparer(
            scale: .fill, workers: pool, colourWarning: { warnings.append($0) }, colourNote: { notes.append($0) })
        _ = try preparer.prepareFrame(for: Photo(id: PhotoID(png)), size: size)
        #expect(notes.all == ["\(png): colour profile \"PNG cHRM, gamma 2.20\""])
        #expect(warnings.all.isEmpty)
    }

    /// sRGB's values (within libpng's tolerance), gAMA alone, and chunks libpng refuses: as stored.
    @Test(arguments: ["srgb", "gamma-only", "zeros", "short"])
    func otherChunksLeaveThePhotoBitIdentical(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let chunks: [UInt8] =
            switch kind {
            case "srgb": Self.cHRM(Self.srgbChromaticities.map { $0 + 40 }) + Self.gAMA(46000)
            case "gamma-only": Self.gAMA(100_000)
            case "zeros": Self.cHRM([UInt32](repeating: 0, count: 8)) + Self.gAMA(45455)
            default: ColourPNGTests.chunk("cHRM", [1, 2, 3]) + Self.gAMA(100_000)
            }
        let png = try Self.png(in: folder, kind, chunks)
        let plain = try PhotoDecoder.decode(
            try ColourPNGTests.png(in: folder, name: "plain", iccp: nil), to: size, scale: .fill)
        let local = try PhotoDecoder.decode(png, to: size, scale: .fill)
        #expect(local.pixels == plain.pixels)
        let worker = try WorkerSupport.decode(png, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == plain.pixels)
        #expect(worker.metadata.colourProfile == nil, "\(worker.metadata)")
    }

    @Test func aDisplayP3CICPIsConvertedLikeTheP3Profile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let p3 = ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        let cicp = try Self.png(in: folder, "cicp", Self.cICP(12, 13))
        let expected = try PhotoDecoder.decode(
            try ColourPNGTests.png(in: folder, name: "iccp", iccp: p3), to: size, scale: .fill)
        let local = try PhotoDecoder.decode(cicp, to: size, scale: .fill)
        let accuracy = ColourTests.meanDifference(local, expected)
        #expect(accuracy.allSatisfy { $0 <= 0.5 }, "against the Display P3 iCCP: \(accuracy)")
        let worker = try WorkerSupport.decode(cicp, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == local.pixels)
        #expect(worker.metadata.colourProfile == "Display P3 (nclx)")
    }

    /// cICP comes first: an sRGB cICP overrules an iCCP; one BabyAlbum cannot convert is named in
    /// one line and the next chunk decides (here a Display P3 iCCP, else sRGB).
    @Test func cICPComesBeforeICCP() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let p3 = ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        let iccp = ColourPNGTests.chunk("iCCP", Array("fixture".utf8) + [0, 0] + ColourPNGTests.storedZlib(p3))
        let plain = try PhotoDecoder.decode(
            try ColourPNGTests.png(in: folder, name: "plain", iccp: nil), to: size, scale: .fill)
        let converted = try PhotoDecoder.decode(
            try ColourPNGTests.png(in: folder, name: "iccp", iccp: p3), to: size, scale: .fill)

        let srgb = try PhotoDecoder.decode(
            try Self.png(in: folder, "srgb", Self.cICP(1, 13) + iccp), to: size, scale: .fill)
        #expect(srgb.pixels == plain.pixels)
        // SMPTE ST 428-1's transfer (17) is not converted (HDR PQ and HLG are: issue 65).
        let st428 = try Self.png(in: folder, "st428", Self.cICP(9, 17) + iccp)
        #expect(try PhotoDecoder.decode(st428, to: size, scale: .fill).pixels == converted.pixels)
        let alone = try Self.png(in: folder, "alone", Self.cICP(9, 17))
        let worker = try WorkerSupport.decode(alone, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(worker.frame.pixels == plain.pixels)
        let reason = "cICP 9/17/0/1: nclx transfer characteristics 17 are not converted"
        #expect(worker.metadata.colourIgnored == reason, "\(worker.metadata)")
        let narrow = try Self.png(in: folder, "narrow", ColourPNGTests.chunk("cICP", [12, 13, 0, 0]))
        let limited = try WorkerSupport.decode(narrow, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(limited.frame.pixels == plain.pixels)
        #expect(limited.metadata.colourIgnored?.hasPrefix("cICP 12/13/0/0: only full-range RGB") == true)
    }

    /// The patches as a PNG with `chunks` after IHDR.
    static func png(in folder: TemporaryFolder, _ name: String, _ chunks: [UInt8]) throws -> String {
        let path = try ColourPNGTests.png(in: folder, name: name, iccp: nil)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.insert(contentsOf: chunks, at: 33)  // after the signature and IHDR
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func cHRM(_ values: [UInt32]) -> [UInt8] {
        ColourPNGTests.chunk("cHRM", values.flatMap(ColourPNGTests.bigEndian))
    }

    static func gAMA(_ value: UInt32) -> [UInt8] { ColourPNGTests.chunk("gAMA", ColourPNGTests.bigEndian(value)) }

    /// cICP for full-range RGB with these colour primaries and transfer function.
    static func cICP(_ primaries: UInt8, _ transfer: UInt8) -> [UInt8] {
        ColourPNGTests.chunk("cICP", [primaries, transfer, 0, 1])
    }
}
