import AlbumDomain
import DecodeSandbox
import Foundation
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// The worker's own program: where the frame finds it, and the header-only request `doctor --quick`
/// sends it.
@Suite struct WorkerProgramTests {
    /// A package's layout: `usr/bin/babyalbum`, `usr/libexec/babyalbum/babyalbum-decoder`.
    @Test func theFrameFindsTheWorkerBesideItselfElseInLibexecElseNamesLibexec() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        try root.makeDirectory("usr")
        try root.makeDirectory("usr/bin")
        let frame = try root.write("usr/bin/babyalbum")
        let installed = (root.path + "/usr/libexec/babyalbum/babyalbum-decoder").replacing("//", with: "/")
        // Neither exists: the package's path is named, so that starting it says what is missing.
        #expect(DecodeWorkerCommand.installed(besides: frame).executable == installed)

        try root.makeDirectory("usr/libexec")
        try root.makeDirectory("usr/libexec/babyalbum")
        _ = try root.write("usr/libexec/babyalbum/babyalbum-decoder")
        #expect(chmod(installed, 0o755) == 0)
        #expect(DecodeWorkerCommand.installed(besides: frame) == DecodeWorkerCommand(executable: installed))

        // A build folder: the worker beside the frame wins.
        let beside = try root.write("usr/bin/babyalbum-decoder")
        #expect(chmod(beside, 0o755) == 0)
        #expect(DecodeWorkerCommand.installed(besides: frame).executable == beside)
    }

    @Test func aMissingWorkerProgramIsNamedInThePhotosReason() throws {
        let missing = DecodeWorkerCommand(executable: "/nonexistent/libexec/babyalbum/babyalbum-decoder")
        let pool = DecodeWorkerPool(command: missing, keepsWarm: false)
        let path = WorkerSupport.fixture("photos/jpeg/progressive.jpg")
        let error = try #require(throws: PhotoError.self) {
            try WorkerSupport.decode(
                path, pool: pool, request: DecodeRequest(size: FrameSize(width: 8, height: 8), scale: .fit))
        }
        #expect(error.reason.contains("/nonexistent/libexec/babyalbum/babyalbum-decoder"), "\(error.reason)")
    }

    /// `doctor --quick`: the worker reads the header alone, the same header the decode reads, and
    /// draws nothing.
    @Test(arguments: ["pngsuite/png/basn2c08.png", "photos/jpeg/progressive.jpg", "photos/webp/lossy.webp"])
    func aHeaderOnlyRequestAnswersTheHeaderAndDrawsNothing(relative: String) throws {
        let path = WorkerSupport.fixture(relative)
        let pool = DecodeWorkerPool(command: WorkerSupport.command, keepsWarm: false)
        let size = FrameSize(width: 32, height: 32)
        let header = try WorkerSupport.decode(
            path, pool: pool, request: DecodeRequest(size: size, scale: .fit, headerOnly: true))
        let decoded = try WorkerSupport.decode(path, pool: pool, request: DecodeRequest(size: size, scale: .fit))
        let local = try PhotoDecoder.header(of: path)
        #expect(header.header.width == local.width && header.header.height == local.height, "\(relative)")
        #expect(header.header == decoded.header, "\(relative)")
        #expect(header.frame.pixels.allSatisfy { $0 == 0 }, "\(relative): nothing drawn")
        #expect(decoded.frame.pixels.contains { $0 != 0 }, "\(relative): the full decode draws")
    }
}
