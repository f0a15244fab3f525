import AlbumDomain
import DecodeSandbox
import Foundation
import PhotoCodec
import Testing

/// Grids of HEVC tiles as phones write them, decoded a strip of tiles at a time (heif_tiles.c):
/// within a decode budget that the whole image (its YCbCr planes and its RGB) would exceed, as a
/// 24 MP iPhone photo exceeds the default 96 MB, and turned and mirrored as libheif turns them.
/// The frames are held against pillow-heif's decode of the whole image (the reference).
@Suite struct HEIFTileStripTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command)

    /// The grids, made once per run from the fixtures' 1200x900 photo, with tiles of 256 pixels:
    /// upright, turned (`irot` 1 to 3 quarter turns anticlockwise) and mirrored (`imir` 0, 1).
    static let grids: Result<String, Error> = Result {
        let folder = try HEIFFixtures.folder.get()
        func make(_ name: String, _ options: [String]) throws {
            try WorkerSupport.run(
                [
                    HEIFFixtures.python, HEIFFixtures.script, "grid", folder + "/photo.png", folder + "/" + name,
                    "--tile", "256",
                ]
                    + options)
        }
        try make("strips.heic", [])
        for turns in 1...3 { try make("strips-irot\(turns).heic", ["--irot", "\(turns)"]) }
        for axis in 0...1 { try make("strips-imir\(axis).heic", ["--imir", "\(axis)"]) }
        return folder
    }

    /// 4 MB: less than the 1200x900 image needs whole (4.9 MB), more than a strip of tiles and
    /// four tiles (3.0 MB with the file).
    static let smallBudget = DecodeMemoryBudget(bytes: 4 << 20)

    @Test func aGridIsShownWithinABudgetItsWholeImageWouldExceed() throws {
        let folder = try Self.grids.get()
        let size = FrameSize(width: 400, height: 300)
        let request = DecodeRequest(size: size, scale: .fill, budget: Self.smallBudget)
        let decoded = try WorkerSupport.decode(folder + "/strips.heic", pool: pool, request: request)
        let reference = try HEIFFixtures.reference(folder + "/strips.heic", size: size)
        #expect(largestDifference(decoded.frame, reference) <= 3)
        // The control: the same picture as one image (not a grid) is decoded whole, and refused.
        let error = try #require(throws: PhotoError.self) {
            try WorkerSupport.decode(folder + "/single.heic", pool: pool, request: request)
        }
        #expect(error.kind == .tooLarge, "\(error)")
        #expect(error.reason.contains("over the budget of 4 MB"), "\(error)")
    }

    @Test(arguments: [
        ("strips-irot1.heic", 300, 400), ("strips-irot2.heic", 400, 300), ("strips-irot3.heic", 300, 400),
        ("strips-imir0.heic", 400, 300), ("strips-imir1.heic", 400, 300),
    ])
    func aTurnedOrMirroredGridIsShownAsLibheifShowsIt(name: String, width: Int, height: Int) throws {
        let path = try Self.grids.get() + "/" + name
        let size = FrameSize(width: width, height: height)
        let request = DecodeRequest(size: size, scale: .fill, budget: Self.smallBudget)
        let decoded = try WorkerSupport.decode(path, pool: pool, request: request)
        let reference = try HEIFFixtures.reference(path, size: size)
        #expect(largestDifference(decoded.frame, reference) <= 3, "\(name)")
        #expect(decoded.header.width == width * 3, "\(name): \(decoded.header)")
    }
}
