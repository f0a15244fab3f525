import AlbumDomain
import FolderRepository
import Foundation
import Logging
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Names and trees an attacker (or a careless sync tool) can put in the photo folder.
@Suite("Folder watcher: hostile names and trees", .serialized)
struct HostileFolderTests {
    /// The published ids relative to `folder`, as bytes; `nil` for states that are not lists.
    func relativeIDs(_ state: PhotoListState, in folder: String) -> Set<[UInt8]>? {
        guard case .loaded(let photos) = state else { return nil }
        return Set(photos.map { Array($0.id.bytes.dropFirst(folder.utf8.count + 1)) })
    }

    @Test("names that are not UTF-8, NFC and NFD twins and names with newlines are all photos, by their bytes")
    func byteNames() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        let folder = temp.file("photos")
        let latin1Folder: [UInt8] = Array("f".utf8) + [0xF6, 0x72]  // "för" in Latin-1
        let expected: Set<[UInt8]> = [
            Array("plain.png".utf8),
            Array("caf\u{E9}.png".utf8),
            Array("cafe\u{301}.png".utf8),
            Array("caf".utf8) + [0xE9] + Array(".png".utf8),
            Array("two\nlines.png".utf8),
            latin1Folder + Array("/x.png".utf8),
        ]
        try makeDirectory(in: folder, name: latin1Folder)
        for name in expected { try writeFile(in: folder, name: name, contents: [UInt8](repeating: 0x42, count: 32)) }
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: folder, timing: testTiming))
        let list = await recorder.next { self.relativeIDs($0, in: folder) == expected }
        let seen = await recorder.all
        #expect(list != nil, "all six, by their bytes: \(seen)")
        await recorder.stop()
    }

    @Test("a chmod on a listed photo (say, a skipped one made readable) makes it leave the list once and come back")
    func chmodRepublishes() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        try temp.write("photos/b.png")
        #expect(chmod(temp.file("photos/a.png"), 0) == 0)
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png", "b.png"] } != nil)
        #expect(chmod(temp.file("photos/a.png"), 0o644) == 0)
        #expect(await recorder.nextList { $0 == ["b.png"] } != nil, "the changed photo leaves the list once")
        #expect(await recorder.nextList { $0 == ["a.png", "b.png"] } != nil, "and comes back, to be tried again")
        await recorder.stop()
    }

    @Test("a symbolic link to a huge tree is followed up to the caps on folders and photos, and the log says so")
    func capsOnFoldersAndPhotos() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for folder in 0..<12 {
            for photo in 0..<3 { try temp.write("huge/d\(folder)/p\(photo).png") }
        }
        try temp.write("photos/own.png")
        try FileManager.default.createSymbolicLink(
            atPath: temp.file("photos/link"), withDestinationPath: temp.file("huge"))
        let log = LogRecorder()
        let logger = log.logger

        // Positive control: generous caps list every photo and warn of nothing.
        let all = ListRecorder(
            repository: FolderPhotoRepository(folder: temp.file("photos"), logger: logger, timing: testTiming))
        #expect(await all.nextList { $0.count == 37 } != nil)
        await all.stop()
        #expect(log.warnings.isEmpty)

        let capped = ListRecorder(
            repository: FolderPhotoRepository(
                folder: temp.file("photos"), logger: logger, timing: testTiming,
                limits: FolderScanLimits(maxFolders: 5, maxPhotos: 8)))
        let list = await capped.next { state in
            guard case .loaded(let photos) = state else { return false }
            return photos.count == 8
        }
        let seen = await capped.all
        #expect(list != nil, "eight photos: \(seen)")
        await capped.stop()
        #expect(log.warnings.contains { $0.contains("more than 5 folders") }, "\(log.warnings)")
        #expect(log.warnings.contains { $0.contains("more than 8 photo files") }, "\(log.warnings)")
        #expect(log.warnings.count == 2, "each cap is logged once: \(log.warnings)")
    }
}

@Suite("Folder watcher: bursts")
struct FolderBurstTests {
    @Test("500 photos copied in one by one are published as a few lists, at most one per 100 ms")
    func burstIsCoalesced() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/first.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["first.png"] } != nil)
        let before = await recorder.all.count
        let start = ContinuousClock.now
        for n in 0..<500 { try temp.write("photos/burst-\(n).png") }
        #expect(await recorder.nextList { $0.count == 501 } != nil)
        let elapsed = ContinuousClock.now - start
        let lists = await recorder.all.count - before
        await recorder.stop()
        let allowed = Int(elapsed / testTiming.minimumPublicationInterval) + 2
        print("500 files in \(elapsed): \(lists) lists (at most \(allowed) allowed)")
        #expect(lists <= allowed, "\(lists) lists in \(elapsed)")
        #expect(lists < 500)
    }
}
