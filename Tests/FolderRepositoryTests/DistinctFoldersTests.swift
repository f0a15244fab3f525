import FolderRepository
import Foundation
import TestSupport
import Testing

/// The same photo folder spelled differently is read once, by device and inode; a folder inside
/// another is read with it. The folders and links are made here.
@Suite struct DistinctFoldersTests {
    @Test func aFolderSpelledFourWaysIsReadOnce() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let album = scratch.file("A")
        try FileManager.default.createDirectory(atPath: album + "/2024", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link"), withDestinationPath: album)
        let other = scratch.file("B")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let given = [album, album + "/.", scratch.path + "/./A/", scratch.file("link"), other, album + "/2024"]
        let distinct = DistinctFolders(given)
        #expect(distinct.kept == [album, other])
        #expect(
            distinct.duplicates.map(\.folder) == [
                album + "/.", scratch.path + "/./A/", scratch.file("link"), album + "/2024",
            ])
        #expect(distinct.duplicates.map(\.isInside) == [false, false, false, true])
        #expect(distinct.duplicates.allSatisfy { $0.keptFolder == album })
        #expect(distinct.duplicates[0].description.contains("is the same folder as"))
    }

    @Test func anOuterFolderGivenLaterTakesThePlaceOfTheInnerOne() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let inner = scratch.file("A/2024")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let distinct = DistinctFolders([inner, scratch.file("A")])
        #expect(distinct.kept == [scratch.file("A")])
        #expect(distinct.duplicates == [.init(folder: inner, keptFolder: scratch.file("A"), isInside: true)])
    }

    @Test func missingFoldersAreKeptForTheirReaderToReportAndComparedBySpelling() {
        let distinct = DistinctFolders(["/nonexistent/x", "/nonexistent/y", "/nonexistent/x"])
        #expect(distinct.kept == ["/nonexistent/x", "/nonexistent/y"])
        #expect(distinct.duplicates.map(\.folder) == ["/nonexistent/x"])
    }
}
