import AlbumDomain
import FolderRepository
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Syncthing in the photo folder (issue 17): its temporary files, its marker folder, its ignore
/// file and its versions folder are never photos; a photo shows once Syncthing renames it into
/// place. Each test lists a real photo in the same run, so a skipped name is not a broken watcher.
@Suite("Syncthing's files in the photo folder", .serialized)
struct SyncthingNamesTests {
    /// Every name Syncthing writes besides the photos it syncs (`lib/fs/tempname.go`,
    /// `lib/config/folderconfiguration.go`, `lib/versioner`).
    static let syncthingNames = [
        ".syncthing.beach.png.tmp",  // a temporary file while it arrives
        ".syncthing.0a1b2c3d4e5f60718293a4b5c6d7e8f9.tmp",  // the hashed name of a long file name
        "~syncthing~beach.png.tmp",  // the Windows-style temporary name
        ".stfolder",  // the folder marker (a folder since 1.19 on new folders, a file before)
        ".stignore",  // the ignore patterns
        ".stversions",  // old versions, when versioning is on
    ]

    @Test("each Syncthing name is ignored, and never a photo", arguments: syncthingNames)
    func namesAreIgnored(name: String) {
        #expect(FolderScan.isIgnored(name: name))
        #expect(!FolderScan.isPhoto(name: name))
    }

    @Test("positive control: the photo Syncthing renames into place is a photo")
    func renamedPhotoIsAPhoto() {
        #expect(FolderScan.isPhoto(name: "beach.png"))
        #expect(!FolderScan.isIgnored(name: "beach.png"))
        #expect(FolderScan.isPhoto(name: "stfolder.png"), "only Syncthing's dot-names are skipped")
    }

    @Test("the first scan skips Syncthing's files and folders, photos in them included")
    func firstScanSkipsSyncthingFiles() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/family/beach.png")
        try temp.write("photos/family/.syncthing.half.png.tmp")
        try temp.write("photos/family/.syncthing.0a1b2c3d4e5f60718293a4b5c6d7e8f9.tmp")
        try temp.write("photos/family/~syncthing~windows.png.tmp")
        try temp.makeDirectory("photos/family/.stfolder")
        try temp.write("photos/family/.stfolder/syncthing-folder-1a2b3c.txt")
        try temp.write("photos/family/.stignore")
        try temp.write("photos/family/.stversions/old~20260101-120000.png")
        try temp.write("photos/family/.stversions/sub/older.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { _ in true } == ["family/beach.png"])
        await recorder.stop()
    }

    @Test("while watching: a photo arriving the way Syncthing writes it shows only after its rename")
    func arrivalShowsAfterRename() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/family/beach.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["family/beach.png"] } != nil)

        // Syncthing's sequence: the temporary file is written and closed, then renamed.
        try temp.write("photos/family/.syncthing.sea.png.tmp", bytes: 4096)
        try temp.write("photos/family/~syncthing~cliff.png.tmp", bytes: 4096)
        try temp.makeDirectory("photos/family/.stversions")
        try temp.write("photos/family/.stversions/beach~20260101-120000.png")
        try temp.write("photos/family/.stignore")
        // A photo written completely after them: once it is listed, the watcher saw them all.
        try temp.write("photos/family/marker.png")
        let seen = await recorder.nextList { $0.contains("family/marker.png") }
        #expect(seen == ["family/beach.png", "family/marker.png"], "no temporary or versioned file is listed")

        try temp.move("photos/family/.syncthing.sea.png.tmp", "photos/family/sea.png")
        #expect(
            await recorder.nextList { $0.contains("family/sea.png") } == [
                "family/beach.png", "family/marker.png", "family/sea.png",
            ])

        // A photo deleted at the source: Syncthing may move it into .stversions; it leaves the list.
        try temp.move("photos/family/beach.png", "photos/family/.stversions/beach~20260102-120000.png")
        #expect(
            await recorder.nextList { !$0.contains("family/beach.png") } == ["family/marker.png", "family/sea.png"])

        let everything = await recorder.all
        let listedSyncthingFile = everything.contains { state in
            guard let names = names(of: state, in: temp.file("photos")) else { return false }
            return names.contains { $0.contains(".st") || $0.contains("syncthing") }
        }
        #expect(!listedSyncthingFile)
        await recorder.stop()
    }
}
