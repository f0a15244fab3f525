import AlbumDomain
import FolderRepository
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The folder repository with a real temporary folder and the real inotify watcher. Every wait
/// is for a published state, with a timeout; nothing sleeps a fixed time.
@Suite("Folder watcher", .serialized)
struct FolderWatchTests {
    @Test("the first scan lists photos in subfolders and skips hidden, temporary and looping entries")
    func firstScan() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        try temp.write("photos/sub/b.PNG")
        try temp.write("photos/sub/deeper/c.png")
        try temp.write("photos/.hidden.png")
        try temp.write("photos/.hidden/d.png")
        try temp.write("photos/e.png.part")
        try temp.write("photos/f.png.tmp")
        try temp.write("photos/g.png~")
        try temp.write("photos/.syncthing.h.png.tmp")
        try temp.write("photos/notes.txt")
        try temp.write("elsewhere/linked.png")
        try FileManager.default.createSymbolicLink(atPath: temp.file("photos/sub/loop"), withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: temp.file("photos/outside"), withDestinationPath: temp.file("elsewhere"))
        try FileManager.default.createSymbolicLink(
            atPath: temp.file("photos/dangling.png"), withDestinationPath: "nowhere.png")

        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        let first = await recorder.next { _ in true }
        #expect(first == .loading)
        let list = await recorder.nextList { _ in true }
        #expect(list == ["a.png", "sub/b.PNG", "sub/deeper/c.png", "outside/linked.png"])
        await recorder.stop()
    }

    @Test("photos written long ago are taken at once, as one list, without the settle time")
    func oldPhotosAreOneListAtOnce() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let anHourAgo = Date().addingTimeInterval(-3600)
        for name in ["a.png", "b.png", "c.png", "sub/d.png"] {
            try FileManager.default.createDirectory(atPath: temp.file("photos/sub"), withIntermediateDirectories: true)
            let path = try temp.write("photos/" + name)
            try FileManager.default.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: path)
        }
        // A settle time far beyond the wait: a list can only come from taking the files at once.
        let timing = FolderWatchTiming(settleTime: .seconds(600), quietTimeForOpenFiles: .seconds(600))
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: timing))
        #expect(await recorder.nextList { _ in true } == ["a.png", "b.png", "c.png", "sub/d.png"])
        await recorder.stop()
        let lists = await recorder.all.filter { if case .loaded = $0 { true } else { false } }
        #expect(lists.count == 1)
    }

    @Test("photos added, renamed, removed and replaced while watching are published")
    func addRenameRemoveReplace() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        try temp.write("photos/b.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png", "b.png"] } != nil)

        try temp.write("photos/c.png")
        #expect(await recorder.nextList { $0 == ["a.png", "b.png", "c.png"] } != nil, "added")

        try temp.move("photos/c.png", "photos/renamed.png")
        #expect(await recorder.nextList { $0 == ["a.png", "b.png", "renamed.png"] } != nil, "renamed")

        try temp.delete("photos/a.png")
        #expect(await recorder.nextList { $0 == ["b.png", "renamed.png"] } != nil, "removed")

        // Replaced the way rsync and Syncthing do it: a hidden temporary file renamed over the photo.
        try temp.write("photos/.b.png.XXXXXX", bytes: 64, fill: 0x77)
        try temp.move("photos/.b.png.XXXXXX", "photos/b.png")
        #expect(await recorder.nextList { $0 == ["renamed.png"] } != nil, "a replaced photo leaves the list once")
        #expect(await recorder.nextList { $0 == ["b.png", "renamed.png"] } != nil, "and comes back")

        // A folder moved in, then out.
        try temp.write("incoming/new/d.png")
        try temp.move("incoming/new", "photos/new")
        #expect(await recorder.nextList { $0 == ["b.png", "new/d.png", "renamed.png"] } != nil, "folder moved in")
        try temp.write("photos/new/e.png")
        #expect(await recorder.nextList { $0.contains("new/e.png") } != nil, "photo in the new folder")
        try temp.move("photos/new", "photos/.trash")
        #expect(await recorder.nextList { $0 == ["b.png", "renamed.png"] } != nil, "folder moved out (hidden)")
        await recorder.stop()
    }

    @Test("a photo still being written is not published until it is closed")
    func partialWriteThenComplete() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png"] } != nil)

        let path = temp.file("photos/slow.png")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let half = [UInt8](repeating: 0x11, count: 4096)
        #expect(write(fd, half, half.count) == half.count)
        // A photo written completely after the half write: once it is listed, the watcher has seen
        // everything that happened to slow.png before it.
        try temp.write("photos/marker1.png")
        let withMarker = await recorder.nextList { $0.contains("marker1.png") }
        #expect(withMarker == ["a.png", "marker1.png"], "the half-written photo is not listed")

        #expect(write(fd, half, half.count) == half.count)
        #expect(close(fd) == 0)
        #expect(await recorder.nextList { $0.contains("slow.png") } == ["a.png", "marker1.png", "slow.png"])

        // Rewritten in place (cp over an existing photo): it leaves the list while it is written.
        let again = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        try #require(again >= 0)
        #expect(write(again, half, 100) == 100)
        try temp.write("photos/marker2.png")
        let duringRewrite = await recorder.nextList { $0.contains("marker2.png") }
        #expect(duringRewrite == ["a.png", "marker1.png", "marker2.png"], "a photo being rewritten is not listed")
        #expect(close(again) == 0)
        #expect(await recorder.nextList { $0.contains("slow.png") } != nil)

        let everything = await recorder.all
        let halfWrittenListed = everything.contains { state in
            guard let names = names(of: state, in: temp.file("photos")) else { return false }
            return names.contains("slow.png") && !names.contains("marker1.png")
        }
        #expect(!halfWrittenListed)
        await recorder.stop()
    }

    @Test("links added while watching (no write, no close) are published after the settle time")
    func linksAdded() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        try temp.write("library/b.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png"] } != nil)
        #expect(link(temp.file("library/b.png"), temp.file("photos/hard.png")) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: temp.file("photos/soft.png"), withDestinationPath: temp.file("library/b.png"))
        #expect(await recorder.nextList { $0 == ["a.png", "hard.png", "soft.png"] } != nil)
        await recorder.stop()
    }

    @Test("a folder that disappears fails, and recovers by itself when it comes back")
    func folderRemovedAndRecreated() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        try temp.write("photos/sub/b.png")
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png", "sub/b.png"] } != nil)

        try temp.delete("photos")
        #expect(await recorder.next(where: isFailed) != nil, "the folder is gone")

        try temp.write("staging/c.png")
        try temp.move("staging", "photos")
        #expect(await recorder.nextList { $0 == ["c.png"] } != nil, "the folder is back")

        // Unplugged again and re-created empty, then filled.
        try temp.delete("photos")
        #expect(await recorder.next(where: isFailed) != nil)
        try temp.makeDirectory("photos")
        #expect(await recorder.nextList { $0.isEmpty } != nil, "an empty folder is an empty list")
        try temp.write("photos/d.png")
        #expect(await recorder.nextList { $0 == ["d.png"] } != nil)
        await recorder.stop()
    }

    @Test("a folder that is missing at start, with its parent, is found when it appears")
    func folderMissingAtStart() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let recorder = ListRecorder(
            repository: FolderPhotoRepository(folder: temp.file("media/usb/photos"), timing: testTiming))
        let failed = await recorder.next(where: isFailed)
        #expect(failed == .failed(reason: "the photo folder \(temp.file("media/usb/photos")) does not exist"))
        try temp.write("media/usb/photos/a.png")
        #expect(await recorder.nextList { $0 == ["a.png"] } != nil)
        await recorder.stop()
    }

    @Test("stopping the stream stops the watcher and drops its inotify watches")
    func stopReleasesWatches() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.write("photos/a.png")
        let folderInode = inode(of: temp.file("photos"))
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["a.png"] } != nil)
        #expect(watchedInodes().contains(folderInode))
        await recorder.stop()
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while watchedInodes().contains(folderInode), ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(!watchedInodes().contains(folderInode))
    }

    @Test("10,000 photos: partial lists early, the full list in the background, small memory")
    func tenThousandPhotos() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let manager = FileManager.default
        let generation = ContinuousClock.now
        for folder in 0..<10 {
            let directory = temp.file("photos/set\(folder)")
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for photo in 0..<1000 {
                try writeFile("\(directory)/photo-\(photo).png", bytes: 16)
            }
        }
        print("generated 10,000 files in \(ContinuousClock.now - generation)")

        let before = try #require(residentKilobytes(), "VmRSS of this process before the scan")
        let start = ContinuousClock.now
        let timing = FolderWatchTiming(
            settleTime: .milliseconds(50), quietTimeForOpenFiles: .seconds(600), missingFolderRetry: .seconds(1),
            scanBatchSize: 256, firstListPatience: .zero)
        let stream = FolderPhotoRepository(folder: temp.file("photos"), timing: timing).photoListStates()
        let consumer = Task { () -> (first: Duration, firstCount: Int, full: Duration, lists: Int, rss: Int?)? in
            var first: (Duration, Int)?
            var lists = 0
            for await state in stream {
                guard case .loaded(let photos) = state else { continue }
                lists += 1
                if first == nil { first = (ContinuousClock.now - start, photos.count) }
                if photos.count == 10_000, let first {
                    return (first.0, first.1, ContinuousClock.now - start, lists, residentKilobytes())
                }
            }
            return nil
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(60))
            consumer.cancel()
        }
        let result = try #require(await consumer.value)
        timeout.cancel()
        let after = try #require(result.rss, "VmRSS of this process after the scan")
        print(
            "10,000 photos: first list after \(result.first) (\(result.firstCount) photos), full list after "
                + "\(result.full), \(result.lists) lists published, VmRSS \(before) kB -> \(after) kB "
                + "(+\(after - before) kB)")
        #expect(result.firstCount > 0)
        #expect(result.firstCount <= 256, "the first batch is published before the rest is scanned")
        #expect(result.lists >= 2)
        #expect(after - before < 64 * 1024, "memory grows with paths, not pixels")
    }

    @Test("a change in a big folder is published quickly without a rescan")
    func changeInBigFolder() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let manager = FileManager.default
        try manager.createDirectory(atPath: temp.file("photos/big"), withIntermediateDirectories: true)
        for photo in 0..<5000 {
            try writeFile(temp.file("photos/big/photo-\(photo).png"), bytes: 16)
        }
        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0.count == 5000 } != nil)
        let start = ContinuousClock.now
        try temp.write("photos/big/new.png")
        #expect(await recorder.nextList { $0.count == 5001 && $0.contains("big/new.png") } != nil)
        print("one photo added to a folder of 5,000 published after \(ContinuousClock.now - start)")
        await recorder.stop()
    }
}

/// A USB stick mounted on the photo folder: inotify does not see mounts, the mount table does.
/// Needs `CAP_SYS_ADMIN` for `mount(2)` (the test scripts run as root); skipped otherwise.
@Suite("Folder watcher and mounts", .serialized, .enabled(if: getuid() == 0, "needs root: it mounts"))
struct FolderMountTests {
    @Test("a stick unmounted from the photo folder and another one mounted are both noticed")
    func stickSwapped() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        try temp.makeDirectory("stick1")
        try temp.makeDirectory("stick2")
        guard mount("tmpfs", temp.file("stick1"), "tmpfs", 0, nil) == 0 else {
            print("skipping: mount(2) is not allowed here (errno \(errno))")
            return
        }
        defer { umount2(temp.file("stick1"), Int32(MNT_DETACH)) }
        try temp.write("stick1/first.png")
        try #require(mount(temp.file("stick1"), temp.file("photos"), nil, UInt(MS_BIND), nil) == 0)
        var mounted = true
        defer { if mounted { umount2(temp.file("photos"), Int32(MNT_DETACH)) } }

        let recorder = ListRecorder(repository: FolderPhotoRepository(folder: temp.file("photos"), timing: testTiming))
        #expect(await recorder.nextList { $0 == ["first.png"] } != nil)

        // Pulled: the folder is back to the empty mount point.
        try #require(umount2(temp.file("photos"), Int32(MNT_DETACH)) == 0)
        mounted = false
        #expect(await recorder.nextList { $0.isEmpty } != nil, "the empty mount point")

        // Another stick, filled elsewhere, then mounted on the folder.
        try #require(mount("tmpfs", temp.file("stick2"), "tmpfs", 0, nil) == 0)
        defer { umount2(temp.file("stick2"), Int32(MNT_DETACH)) }
        try temp.write("stick2/second.png")
        try #require(mount(temp.file("stick2"), temp.file("photos"), nil, UInt(MS_BIND), nil) == 0)
        mounted = true
        #expect(await recorder.nextList { $0 == ["second.png"] } != nil, "the new stick's photos")
        await recorder.stop()
    }
}
