import Foundation
import Testing

/// `--name` on the command line (issue 39, fault 4): its usage error quotes the name escaped and
/// cut short, so it can neither recolour, ring or overprint a terminal nor fill a journal line.
@Suite struct NameArgumentEndToEndTests {
    static func usageError(name: String) throws -> (status: Int32, log: String) {
        try BabyAlbumProcess.run([
            "--photos", "/nonexistent", "--output", "png:/nonexistent", "--count", "1", "--settings", "/nonexistent",
            "--name", name, "--birthday", "2024-01-01",
        ])
    }

    @Test func controlCharactersInTheNameAreEscaped() throws {
        let result = try Self.usageError(name: "\u{1B}[31mM\u{07}i\u{08}a\u{7F}\t")
        #expect(result.status != 0)
        #expect(result.log.contains(#"\x1B[31mM\x07i\x08a\x7F\t"#), "\(result.log)")
        let controls = result.log.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
        #expect(controls.isEmpty, "\(result.log)")
    }

    @Test func aLongNameIsCutShort() throws {
        let result = try Self.usageError(name: String(repeating: "M", count: 10_000))
        #expect(result.status != 0)
        #expect(result.log.contains("… (10000 characters)"), "\(result.log.prefix(300))")
        #expect(result.log.utf8.count < 2000)
    }
}
