import Testing

@testable import BabyAlbumCommands

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum --version` says the version its package carries (issue 67).
@Suite("The version")
struct VersionTests {
    @Test func theProgramsVersionIsThePackagesVersion() throws {
        let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let packaged = try String(
            contentsOf: repository.appending(path: "deploy/debian/VERSION"), encoding: .utf8)
        #expect(BabyAlbumVersion.current == packaged.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func versionIsAnOptionOfTheRootCommand() throws {
        #expect(BabyAlbumCommand.configuration.version == BabyAlbumVersion.current)
    }
}
