import AlbumDomain
import DecodeSandbox
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
        // 30 x 30 tiles, each an item of its own, all pointing at the one coded 800x600 image.
        let clones = ["30", "30", "640", "480", "--tile-ispe", "6", "4", "--clones"]
        try make(["bomb-grid", folder + "/tile.png", folder + "/clones.heic"] + clones)
        // The same through an `iovl` overlay: 10,000 layers, all the one 800x600 image.
        try make(["bomb-grid", folder + "/tile.png", folder + "/overlay.heic", "100", "100", "640", "480", "--overlay"])
        // Twelve distinct 256x256 tiles under a grid that says 64x64: four times what covering it takes.
        try make(["loose-grid", folder + "/tile.png", folder + "/loose.heic", "64", "64", "--tile", "256"])
        try make(["grid", folder + "/tile.png", folder + "/fair.heic", "--tile", "256"])
        // Faults 5 and 6: an `ispe` that understates the coded image.
        try make(["single", folder + "/tile.png", folder + "/honest.heic"])
        try make(["lie", folder + "/honest.heic", folder + "/square-lie.heic", "16", "16"])
        try WorkerSupport.run([
            "/usr/bin/heif-enc", "-A", "-q", "60", "-o", folder + "/honest.avif", folder + "/tile.png",
        ])
        try make(["lie", folder + "/honest.avif", folder + "/square-lie.avif", "16", "16"])
        // AV1 tiles of 256x256 whose `ispe` says 6x4, under a 64x64 grid: their coded size counts.
        let lying = ["64", "64", "--tile", "256", "--avif", "--tile-ispe", "6", "4"]
        try make(["loose-grid", folder + "/tile.png", folder + "/loose-lie.avif"] + lying)
        try make(["photo", folder + "/big.png", "2400", "1800"])
        try make(["single", folder + "/big.png", folder + "/big.heic"])
        try make(["lie", folder + "/big.heic", folder + "/big-lie.heic", "240", "180"])
        try make(["big-exif", folder + "/big-exif.heic", "2048"])
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
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("same tile more than once") == true, "\(error?.reason ?? "")")
        #expect(error?.isLasting == true)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func anOverlayThatRepeatsOneImageIsRefusedAtOnce() throws {
        let path = try GridBombFixtures.folder.get() + "/overlay.heic"
        let started = ContinuousClock.now
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason == "HEIF overlay of 10000 layers refers to the same layer more than once")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aGridWhoseTilesShareOneCodedImageIsRefused() throws {
        let path = try GridBombFixtures.folder.get() + "/clones.heic"
        let started = ContinuousClock.now
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason == "HEIF grid of 900 tiles has tiles that share one coded image")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func aGridWithMoreTilesThanItsImageNeedsIsRefused() throws {
        let path = try GridBombFixtures.folder.get() + "/loose.heic"
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("more than the 102400 its 64x64 image needs") == true, "\(error?.reason ?? "")")
    }

    /// AV1 tiles say nothing of their size in their `av1C`: it is read from their sequence header.
    @Test func anAV1GridIsBoundedByItsTilesCodedSize() throws {
        let path = try GridBombFixtures.folder.get() + "/loose-lie.avif"
        let error = #expect(throws: PhotoError.self) {
            _ = try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error?.kind == .tooLarge, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("tiles of up to 256x256") == true, "\(error?.reason ?? "")")
    }

    /// The control: the same tiles under a grid of the photo's own size are shown.
    @Test func aFairGridIsShown() throws {
        let path = try GridBombFixtures.folder.get() + "/fair.heic"
        let decoded = try WorkerSupport.decode(path, pool: pool, request: request)
        #expect(decoded.header.width == 800 && decoded.header.height == 600)
    }
}

/// HEIF files whose `ispe` understates the coded image (issue 39, faults 5 and 6), and one with
/// an Exif item far larger than any camera writes.
@Suite struct HEIFSizeLieTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command)

    /// A 16x16 `ispe` on an 800x600 stream (HEVC, and AV1): laid out as the 800x600 photo it is,
    /// not as a square.
    @Test(arguments: ["heic", "avif"])
    func aSquareLieIsLaidOutByTheCodedSize(format: String) throws {
        let folder = try GridBombFixtures.folder.get()
        let request = DecodeRequest(size: FrameSize(width: 160, height: 90), scale: .auto)
        let lie = try WorkerSupport.decode(folder + "/square-lie." + format, pool: pool, request: request)
        let honest = try WorkerSupport.decode(folder + "/honest." + format, pool: pool, request: request)
        #expect(lie.header.width == 800 && lie.header.height == 600, "\(lie.header)")
        #expect(lie.scaleUsed == honest.scaleUsed)
        #expect(lie.frame.pixels == honest.frame.pixels)
    }

    /// A 2400x1800 stream labelled 240x180 is held to the budget by its coded size, before decoding.
    @Test func anUnderstatedSizeIsHeldToTheBudget() throws {
        let folder = try GridBombFixtures.folder.get()
        let request = DecodeRequest(
            size: FrameSize(width: 160, height: 120), scale: .fill, budget: DecodeMemoryBudget(megabytes: 8))
        for name in ["big.heic", "big-lie.heic"] {
            let error = #expect(throws: PhotoError.self) {
                _ = try WorkerSupport.decode(folder + "/" + name, pool: pool, request: request)
            }
            #expect(error?.kind == .tooLarge, "\(name): \(error?.reason ?? "")")
            #expect(error?.reason.contains("2400x1800") == true, "\(name): \(error?.reason ?? "")")
        }
    }

    /// An Exif item of 2 MB is not read (the photo is shown, without its date).
    @Test func aHugeExifItemIsNotRead() throws {
        let folder = try GridBombFixtures.folder.get()
        let request = DecodeRequest(size: FrameSize(width: 64, height: 48), scale: .fill)
        let decoded = try WorkerSupport.decode(folder + "/big-exif.heic", pool: pool, request: request)
        #expect(decoded.metadata.exif == nil)
        #expect(decoded.workerPeakKilobytes < 60_000, "\(decoded.workerPeakKilobytes) KiB")
    }
}
