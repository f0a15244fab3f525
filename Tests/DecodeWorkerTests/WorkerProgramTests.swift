import AlbumDomain
import DecodeSandbox
import Foundation
import LinuxInterfaces
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

    /// The package's layout: one program a format family in `usr/libexec/babyalbum`.
    @Test func eachFormatHasItsFamilysProgramWhereInstalledElseTheGeneralOne() throws {
        let root = try TemporaryFolder()
        defer { root.remove() }
        for folder in ["usr", "usr/bin", "usr/libexec", "usr/libexec/babyalbum"] { try root.makeDirectory(folder) }
        let frame = try root.write("usr/bin/babyalbum")
        for family in ["jpeg", "heif"] {
            #expect(chmod(try root.write("usr/libexec/babyalbum/babyalbum-decoder-" + family), 0o755) == 0)
        }
        let programs = DecodeWorkerPrograms.installed(besides: frame)
        let libexec = (root.path + "/usr/libexec/babyalbum/").replacing("//", with: "/")
        #expect(programs.command(for: .jpeg).executable == libexec + "babyalbum-decoder-jpeg")
        for format in [PhotoFormat.heic, .heif, .avif] {
            #expect(programs.command(for: format).executable == libexec + "babyalbum-decoder-heif", "\(format)")
        }
        // No program of their own: the general one, named where the package would have it.
        for format in [PhotoFormat.png, .webp] {
            #expect(programs.command(for: format).executable == libexec + "babyalbum-decoder", "\(format)")
        }
    }

    /// Each photo goes to its format's program, and the waiting worker is the last photo's
    /// format's: a photo of another format stops it and starts its own.
    @Test func eachPhotoIsDecodedByItsFormatsProgramAndTheWaitingWorkerFollows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A copy of the worker program under the JPEG family's name (its own path, so that the
        // process shows which program it runs).
        let jpegProgram = (folder.path + "/babyalbum-decoder-jpeg").replacing("//", with: "/")
        try WorkerSupport.run(["/bin/cp", WorkerSupport.command.executable, jpegProgram])
        let programs = DecodeWorkerPrograms(
            WorkerSupport.command, byFamily: ["jpeg": DecodeWorkerCommand(executable: jpegProgram)])
        let pool = DecodeWorkerPool(programs: programs)
        let size = FrameSize(width: 32, height: 24)
        let request = DecodeRequest(size: size, scale: .fit)
        // Read once the waiting worker has said it is ready: before its `exec` (a slow board's) the
        // new process still shows the test runner's image.
        func waitingProgram() -> String? {
            guard pool.waitingWorkerMemory(timeout: .seconds(60)) != nil else { return nil }
            return pool.waitingWorker.flatMap { SymbolicLink.target(of: "/proc/\($0)/exe") }
        }
        for (photo, program) in [
            ("pngsuite/png/basn2c08.png", WorkerSupport.command.executable),
            ("photos/jpeg/progressive.jpg", jpegProgram),
            ("photos/webp/lossy.webp", WorkerSupport.command.executable), ("photos/jpeg/s420.jpg", jpegProgram),
        ] {
            var started: Int32 = 0
            let decoded = try WorkerSupport.decode(WorkerSupport.fixture(photo), pool: pool, request: request) {
                started = $0
            }
            #expect(decoded.frame.pixels.contains { $0 != 0 }, "\(photo) drawn")
            #expect(started > 0, "\(photo)")
            #expect(waitingProgram() == program, "after \(photo), the waiting worker runs \(program)")
        }
    }

    @Test func aFormatsMissingProgramRefusesItsPhotosAloneNamingTheProgram() throws {
        let missing = DecodeWorkerCommand(executable: "/nonexistent/libexec/babyalbum/babyalbum-decoder-jpeg")
        let pool = DecodeWorkerPool(
            programs: DecodeWorkerPrograms(WorkerSupport.command, byFamily: ["jpeg": missing]), keepsWarm: false)
        let request = DecodeRequest(size: FrameSize(width: 8, height: 8), scale: .fit)
        let error = try #require(throws: PhotoError.self) {
            try WorkerSupport.decode(WorkerSupport.fixture("photos/jpeg/progressive.jpg"), pool: pool, request: request)
        }
        #expect(error.reason.contains(missing.executable), "\(error.reason)")
        _ = try WorkerSupport.decode(WorkerSupport.fixture("pngsuite/png/basn2c08.png"), pool: pool, request: request)
    }
}
