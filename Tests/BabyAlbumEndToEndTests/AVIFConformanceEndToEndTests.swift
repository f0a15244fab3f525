import Foundation
import Testing

/// The av1-avif conformance files of Tests/Fixtures/avif-conformance (a checksummed subset, its
/// licences beside it), each shown by the program under test and compared with libavif's `avifdec`
/// by Tests/AVIF/conformance.py (docs/testing.md): within a mean difference of 3 per channel, or,
/// where libavif refuses the file, refused with one line.
@Suite struct AVIFConformanceEndToEndTests {
    static let folder = BabyAlbumProcess.repository + "/Tests/Fixtures/avif-conformance"
    static let script = BabyAlbumProcess.repository + "/Tests/AVIF/conformance.py"

    /// The files that SHA256SUMS lists.
    static let names: [String] = {
        guard let sums = try? String(contentsOfFile: folder + "/SHA256SUMS", encoding: .utf8) else { return [] }
        return sums.split(separator: "\n").compactMap { line in
            line.split(separator: " ", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }()

    @Test func theFilesAreTheOnesListedWithTheirChecksums() throws {
        #expect(Self.names.count >= 19)
        let (status, output) = try Self.python(["check-sums"])
        #expect(status == 0, "\(output)")
    }

    @Test(arguments: names)
    func isShownAsLibavifShowsIt(name: String) throws {
        let (status, output) = try Self.python(["compare", "--program", BabyAlbumProcess.executable, name])
        #expect(status == 0, "\(output)")
    }

    /// Display P3, BT.2020 SDR, HDR PQ and HDR HLG AVIFs (avifenc, from Photos/meadow.png): each
    /// converted to sRGB within 3 of Tests/AVIF/srgb_reference.py's conversion of avifdec's decode;
    /// and an image sequence with no primary item (its first frame, from its track).
    @Test func wideGamutAndHDRAreConvertedAsTheReferenceSays() throws {
        let folder = NSTemporaryDirectory() + "/babyalbum-avif-tagged-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (made, log) = try Self.python(["tagged", folder])
        #expect(made == 0, "\(log)")
        let (status, output) = try Self.python([
            "compare", "--program", BabyAlbumProcess.executable, "--files", folder,
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("5 passed, 0 failed"), "\(output)")
    }

    /// Runs the script with Debian's Python (Pillow: `python3-pil`); its status and output.
    static func python(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
