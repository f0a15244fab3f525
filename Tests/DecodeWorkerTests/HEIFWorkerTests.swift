import AlbumDomain
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

/// HEIC files made here with libheif's heif-enc (Tests/HEIF/heif_fixtures.py writes the grid
/// item heif-enc 1.15 cannot), decoded by the worker and compared with Pillow's decode
/// (pillow-heif, its own newer libheif) resized with a box filter to the same size.
enum HEIFFixtures {
    static let script = WorkerSupport.testsFolder + "/HEIF/heif_fixtures.py"
    /// The Python with pillow-heif (`scripts/install-deps --test` makes it).
    static let referencePython = "/var/cache/babyalbum/venv-heif/bin/python"
    /// The Python that runs the script: the reference one when installed (it has Pillow), else the system's.
    static let python =
        FileManager.default.isExecutableFile(atPath: referencePython) ? referencePython : "/usr/bin/python3"

    /// The files, made once per run.
    static let folder: Result<String, Error> = Result {
        let folder = NSTemporaryDirectory() + "/babyalbum-heif-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func make(_ arguments: [String]) throws { try WorkerSupport.run([python, script] + arguments) }
        try make(["photo", folder + "/photo.png", "1200", "900"])
        try make(["photo", folder + "/alpha.png", "600", "400", "--alpha"])
        try make(["photo", folder + "/deep.png", "600", "400", "--sixteen"])
        try make(["single", folder + "/photo.png", folder + "/single.heic"])
        try make(["grid", folder + "/photo.png", folder + "/grid.heic"])
        try make(["grid", folder + "/photo.png", folder + "/turned.heic", "--irot", "1", "--imir", "1"])
        try make(["single", folder + "/alpha.png", folder + "/alpha.heic"])
        try make(["single", folder + "/deep.png", folder + "/ten-bit.heic"])
        try make(["predicted", folder + "/photo.png", folder + "/predicted.heic"])
        try WorkerSupport.run([
            "/usr/bin/heif-enc", "-A", "-q", "90", "-o", folder + "/still.avif", folder + "/photo.png",
        ])
        // An iPhone photo renamed by hand: recognised by its ftyp brands, not its name.
        try FileManager.default.copyItem(atPath: folder + "/grid.heic", toPath: folder + "/IMG_0004.jpg")
        return folder
    }

    /// Pillow's decode of `path`, resized to `size` (raw RGB).
    static func reference(_ path: String, size: FrameSize) throws -> Frame {
        let out = path + ".\(size.width)x\(size.height).rgb"
        try WorkerSupport.run([referencePython, script, "reference", path, "\(size.width)", "\(size.height)", out])
        return try WorkerSupport.frame(rgbFile: out, size: size)
    }
}

@Suite struct HEIFWorkerTests {
    let pool = DecodeWorkerPool(command: WorkerSupport.command)

    @Test(
        arguments: [
            ("single.heic", 400, 300), ("grid.heic", 400, 300), ("turned.heic", 300, 400), ("alpha.heic", 300, 200),
            ("ten-bit.heic", 300, 200), ("IMG_0004.jpg", 400, 300),
        ])
    func isShownWithinThreeOfPillow(name: String, width: Int, height: Int) throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: HEIFFixtures.referencePython),
            "pillow-heif: run scripts/install-deps --test")
        let path = try HEIFFixtures.folder.get() + "/" + name
        let size = FrameSize(width: width, height: height)
        let decoded = try WorkerSupport.decode(path, pool: pool, request: DecodeRequest(size: size, scale: .fill))
        let reference = try HEIFFixtures.reference(path, size: size)
        #expect(largestDifference(decoded.frame, reference) <= 3, "\(name)")
        #expect(decoded.header.width == width * 3 || decoded.header.width == width * 2, "\(name): \(decoded.header)")
        #expect(decoded.extras[4].map { String(decoding: $0, as: UTF8.self) } == "libheif \(PhotoDecoder.heifVersion)")
    }

    /// A primary item predicted from another (`pred`; Nokia's conformance file C044) is refused:
    /// libheif 1.15 decodes it alone, a grey picture of differences, where 1.19 refuses it.
    @Test func aPredictedImageIsRefused() throws {
        let path = try HEIFFixtures.folder.get() + "/predicted.heic"
        let request = DecodeRequest(size: FrameSize(width: 160, height: 120), scale: .fit)
        let error = try #require(throws: PhotoError.self) {
            try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error.kind == .unsupportedFeature, "\(error)")
        #expect(error.reason.contains("predictively coded"), "\(error)")
    }

    /// An AVIF the worker's libheif can decode but the frame refuses for a feature (matrix
    /// coefficients 10, which libavif refuses too) is skipped with that reason, not as a format
    /// this libheif lacks a decoder for.
    @Test func anAVIFRefusedForAFeatureKeepsItsReason() throws {
        let path =
            WorkerSupport.testsFolder
            + "/Fixtures/avif-conformance/Microsoft/Chimera_10bit_cropped_to_1920x1008_with_HDR_metadata.avif"
        #expect(PhotoDecoder.decodesAVIF)
        let request = DecodeRequest(size: FrameSize(width: 160, height: 90), scale: .fit)
        let error = try #require(throws: PhotoError.self) {
            try WorkerSupport.decode(path, pool: pool, request: request)
        }
        #expect(error.kind == .unsupportedFeature, "\(error)")
        #expect(error.reason.contains("matrix coefficients 10"), "\(error)")
    }

    /// The slideshow's preparer (worker) and the in-process one give the same frames, `auto`'s
    /// backdrop and a turned screen included, for every format.
    @Test(arguments: ["grid.heic", "still.avif", "IMG_0004.jpg"])
    func theSandboxedPreparerMatchesTheInProcessOne(name: String) throws {
        let path = try HEIFFixtures.folder.get() + "/" + name
        #expect(try PhotoFormat.detect(path: path) == (name.hasSuffix("avif") ? .avif : .heic))
        #expect(!name.hasSuffix("avif") || PhotoDecoder.decodesAVIF)
        let photo = Photo(id: PhotoID(path))
        for size in [FrameSize(width: 160, height: 120), FrameSize(width: 160, height: 90)] {
            for rotation in [ScreenRotation.none, .clockwise90] {
                for scale in ScaleMode.allCases {
                    let sandboxed = SandboxedFramePreparer(scale: scale, rotation: rotation, workers: pool)
                    let local = PhotoFramePreparer(scale: scale, rotation: rotation)
                    let a = try sandboxed.prepareFrame(for: photo, size: size)
                    let b = try local.prepareFrame(for: photo, size: size)
                    #expect(a.size == b.size && a.pixels == b.pixels, "\(name) \(size) \(rotation) \(scale)")
                }
            }
        }
    }
}
