import AlbumDomain
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// ICC profiles that would cost lcms2 seconds per photo (issue 39, fault 2), made at test time
/// by Tests/ICC/icc_fixtures.py: refused from their tag structure before lcms2 reads them, and
/// the photo shown as sRGB with the one "colour profile ignored" line.
@Suite struct ColourProfileBombTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command, deadline: .seconds(20))
    let size = FrameSize(width: ColourTests.patch * 4, height: ColourTests.patch * 2)
    static let script = WorkerSupport.testsFolder + "/ICC/icc_fixtures.py"

    /// The profile the script makes with `arguments`.
    static func profile(_ arguments: [String], in folder: TemporaryFolder) throws -> [UInt8] {
        let out = folder.file("profile.icc")
        try WorkerSupport.run(["/usr/bin/python3", script] + arguments + [out])
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test(arguments: [
        (["mpet", "2000"], "its D2B0 tag lists 2000 processing elements, more than the 16 allowed"),
        (["mpet", "30000"], "its D2B0 tag lists 30000 processing elements, more than the 16 allowed"),
        (["clut", "200"], "its D2B0 tag has a colour table of more than 2097152 grid points"),
    ])
    func aCostlyProfileIsIgnoredAtOnce(arguments: [String], reason: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try ColourTests.jpeg(in: folder, name: "bomb", profile: Self.profile(arguments, in: folder))
        let plain = try ColourTests.jpeg(in: folder, name: "plain", profile: nil)
        let lines = LockedLines()
        let preparer = SandboxedFramePreparer(scale: .fill, workers: pool) { lines.append($0) }
        let frame = try preparer.prepareFrame(for: Photo(id: PhotoID(tagged)), size: size)
        // "At once": the worker's own CPU time (a loaded machine stretches the wall clock, not it);
        // running the profile's elements would take seconds of it.
        let decoded = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(decoded.workerCPUNanoseconds < 1_000_000_000, "\(decoded.workerCPUNanoseconds) ns of CPU")
        #expect(frame.pixels == (try PhotoDecoder.decode(plain, to: size, scale: .fill)).pixels)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasSuffix("ignored (\(reason)); shown as sRGB") == true, "\(lines.all)")
    }

    /// The control: the same profile with one element is used (lcms2 converts with it).
    @Test func aProfileWithOneElementIsUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = try ColourTests.jpeg(in: folder, name: "plain", profile: Self.profile(["plain"], in: folder))
        let decoded = try WorkerSupport.decode(tagged, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        #expect(decoded.metadata.colourIgnored == nil, "\(decoded.metadata)")
        #expect(decoded.metadata.colourProfile == "BabyAlbum plain test")
    }
}
