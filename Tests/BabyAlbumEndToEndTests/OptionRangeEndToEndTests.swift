import Foundation
import TestSupport
import Testing

/// Every numeric option has a documented range; a value outside it is a one-line usage error
/// (exit 64), never a crash or a backtrace.
@Suite struct OptionRangeEndToEndTests {
    static let photos = BabyAlbumProcess.repository + "/Photos"

    @Test(arguments: [
        (["--interval", "1e16"], "--interval"),
        (["--interval", "0.0004"], "--interval must be from 1"),
        (["--interval", "0.2"], "--interval must be from 1"),
        (["--interval", "-1"], "--interval must be from 1"),
        (["--interval", "0x10"], "--interval"),
        (["--interval", "nan"], "--interval"),
        (["--exit-hold", "1e16"], "--exit-hold"),
        (["--exit-hold", "-3"], "--exit-hold must be from 0"),
        (["--exit-hold", "61"], "--exit-hold must be from 0"),
        (["--max-photo-megapixels", "2e13"], "--max-photo-megapixels"),
        (["--max-photo-megapixels", "5000"], "--max-photo-megapixels must be from 1"),
        (["--size", "16384x16384"], "--size must be WxH"),
        (["--size", "8x8"], "--size must be WxH"),
        (["--size", "0x0"], "--size"),
        (["--mode", "9000x9000"], "--mode must be WxH"),
        (["--mode", "4k"], "--mode"),
        (["--count", "-5"], "--count must be from 1"),
        (["--count", "0x10"], "--count"),
        (["--seed", "-1"], "--seed"),
        (["--fade", "inf"], "--fade"),
        (["--fade", "-1"], "--fade must be from 0.3"),
    ])
    func aValueOutsideItsRangeIsAOneLineUsageError(arguments: [String], mentioned: String) throws {
        let result = try BabyAlbumProcess.run(
            ["--photos", Self.photos, "--output", "memory", "--count", "1"] + arguments, fastIntervals: false)
        #expect(result.status == 64, "usage errors exit with EX_USAGE: \(result.log)")
        #expect(result.log.contains(mentioned), "\(result.log)")
        let lines = result.log.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1, "one line: \(result.log)")
        #expect(!result.log.contains("Fatal error") && !result.log.contains("Backtrace"))
    }

    @Test func valuesAtTheEndsOfTheirRangesAreAccepted() throws {
        // The positive control: the same binary, the same way, with values in range.
        let output = try TemporaryFolder()
        defer { output.remove() }
        let result = try BabyAlbumProcess.run(
            [
                "--photos", Self.photos, "--output", "png:" + output.path, "--count", "1", "--interval", "1",
                "--exit-hold", "60", "--max-photo-megapixels", "1000", "--size", "16x16", "--fade", "0.3", "--seed",
                "18446744073709551615",
            ],
            fastIntervals: false)
        #expect(result.status == 0, "\(result.log)")
        #expect(output.files() == ["frame-0001.png"])
    }

    @Test(arguments: ["native", "preferred", "Native", "1280x720"])
    func modeTakesNativeOrASize(mode: String) throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let result = try BabyAlbumProcess.run(
            ["--photos", Self.photos, "--output", "png:" + output.path, "--count", "1", "--mode", mode],
            fastIntervals: false)
        #expect(result.status == 0, "\(result.log)")
    }

    @Test func helpNamesEveryRange() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BabyAlbumProcess.executable)
        process.arguments = ["help", "show"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for range in ["1 to 86400", "1 to 1000000000", "16 to 7680", "0 to 60", "1 to 1000", "0.3 to 5"] {
            #expect(text.contains(range), "--help gives \(range): \(text)")
        }
    }
}
