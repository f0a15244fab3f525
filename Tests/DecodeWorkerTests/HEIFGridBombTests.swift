import AlbumDomain
import Foundation
import PhotoCodec
import Testing

/// HEIF and AVIF grids that would make libheif decode far more than they show (issue 39, fault 1),
/// made at test time by Tests/HEIF/heif_fixtures.py: refused from the file's structure, before
/// libheif decodes a tile, in well under a second.
enum GridBombFixtures {
    /// The files, made once per run.
    static let folder: Result<String, Error> = Result {
        let folder = NSTemporaryDirectory() + "/babyalbum-grid-bombs-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func make(_ arguments: [String]) throws {
            try WorkerSupport.run([HEIFFixtures.python, HEIFFixtures.script] + arguments)
        }
        try make(["photo", folder + "/tile.png", "800", "600"])
        // The issue's files: a 640x480 image of 100 x 100 tiles that all point to one 800x600 tile,
        // whose `ispe` says 6x4 (so that libheif 1.15 accepts the grid and decodes every tile).
        let bomb = ["100", "100", "640", "480", "--tile-ispe", "6", "4"]
        try make(["bomb-grid", folder + "/tile.png", folder + "/bomb.heic"] + bomb)
        try make(["bomb-grid", folder + "/tile.png", folder + "/bomb.avif"] + bomb + ["--avif"])
        // Twelve distinct 256x256 tiles under a grid that says 64x64: four times what covering it takes.
        try make(["loose-grid", folder + "/tile.png", folder + "/loose.heic", "64", "64", "--tile", "256"])
        try make(["grid", folder + "/tile.png", folder + "/fair.heic", "--tile", "256"])
        return folder
    }
}

@Suite struct HEIFGridBombTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command)
    let request = DecodeRequest(size: FrameSize(width: 160, height: 120), scale: .fill)

    @Test(arguments: ["bomb.heic", "bomb.avif"])
    func aGridThatRepeatsOneTileIsRefusedAtOnce(name: String) throws {
        let path = try GridBombFixtures.folder.get() + "/" + name
        let started = ContinuousClock.now
        let error = #expect(throws: PhotoError.self) { _ = try WorkerSupport.decode(path, pool: pool, request: request) }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("same tile more than once") == true, "\(error?.reason ?? "")")
        #expect(error?.isLasting == true)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aGridWithMoreTilesThanItsImageNeedsIsRefused() throws {
        let path = try GridBombFixtures.folder.get() + "/loose.heic"
        let error = #expect(throws: PhotoError.self) { _ = try WorkerSupport.decode(path, pool: pool, request: request) }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("more than the 102400 its 64x64 image needs") == true, "\(error?.reason ?? "")")
    }

    /// The control: the same tiles under a grid of the photo's own size are shown.
    @Test func aFairGridIsShown() throws {
        let path = try GridBombFixtures.folder.get() + "/fair.heic"
        let decoded = try WorkerSupport.decode(path, pool: pool, request: request)
        #expect(decoded.header.width == 800 && decoded.header.height == 600)
    }
}
