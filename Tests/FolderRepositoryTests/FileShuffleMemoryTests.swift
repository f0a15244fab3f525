import AlbumDomain
import FolderRepository
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Shuffle state file")
struct FileShuffleMemoryTests {
    @Test("a saved round is loaded again after a restart")
    func survivesRestart() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        try temp.makeDirectory("state")
        let folder = temp.file("photos")
        let snapshot = ShuffleSnapshot(
            remaining: [PhotoID("\(folder)/b.png"), PhotoID("\(folder)/sub/c.png"), "/elsewhere/linked.png"],
            shown: [PhotoID("\(folder)/a.png"), PhotoID("\(folder)/odd\nname%0A.png")],
            last: PhotoID("\(folder)/odd\nname%0A.png"))

        let before = FileShuffleMemory(stateDirectory: temp.file("state"), folder: folder)
        try #require(before != nil)
        #expect(before?.load() == nil, "nothing saved yet")
        before?.save(snapshot)

        // A new process: a new memory object on the same file.
        let after = FileShuffleMemory(stateDirectory: temp.file("state"), folder: folder + "/")
        #expect(after?.file == temp.file("state/shuffle.state"))
        #expect(after?.load() == snapshot)

        let text = try String(contentsOfFile: temp.file("state/shuffle.state"), encoding: .utf8)
        #expect(text.hasPrefix("babyalbum-shuffle 1\nfolder \(folder)\nlast odd%0Aname%250A.png\nremaining b.png\n"))
        #expect(text.hasSuffix("end 5\n"))
        #expect(!FileManager.default.fileExists(atPath: temp.file("state/shuffle.state.tmp")), "no temporary file left")

        // The same folder named another way (a symbolic link to it) is the same folder.
        try FileManager.default.createSymbolicLink(atPath: temp.file("link"), withDestinationPath: folder)
        let viaLink = FileShuffleMemory(stateDirectory: temp.file("state"), folder: temp.file("link"))
        #expect(viaLink?.load()?.remaining.first == PhotoID(temp.file("link/b.png")))

        // The next save replaces it.
        let next = ShuffleSnapshot(
            remaining: [PhotoID("\(folder)/sub/c.png")], shown: [PhotoID("\(folder)/b.png")],
            last: PhotoID("\(folder)/b.png"))
        after?.save(next)
        #expect(FileShuffleMemory(stateDirectory: temp.file("state"), folder: folder)?.load() == next)
    }

    @Test(
        "a corrupt, cut-short, foreign or other-version state file is ignored, and then overwritten",
        arguments: [
            "",
            "garbage\u{0}\u{1}\u{2}",
            "babyalbum-shuffle 2\nfolder FOLDER\nend 0\n",
            "babyalbum-shuffle 1\nfolder FOLDER\nremaining a.png\nremaining b.png\n",
            "babyalbum-shuffle 1\nfolder FOLDER\nremaining a.png\nend 1",
            "babyalbum-shuffle 1\nfolder FOLDER\nremaining a.png\nend 2\n",
            "babyalbum-shuffle 1\nfolder FOLDER\nwhatever a.png\nend 1\n",
            "babyalbum-shuffle 1\nfolder /some/other/folder\nremaining a.png\nend 1\n",
            "babyalbum-shuffle 1\nremaining a.png\nend 1\n",
        ])
    func corruptFileIgnored(contents: String) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        let folder = temp.file("photos")
        let file = temp.file("shuffle.state")
        try contents.replacingOccurrences(of: "FOLDER", with: folder).write(
            toFile: file, atomically: false, encoding: .utf8)
        let memory = FileShuffleMemory(file: file, folder: folder)
        #expect(memory.load() == nil)

        let snapshot = ShuffleSnapshot(remaining: [PhotoID("\(folder)/a.png")], shown: [], last: nil)
        memory.save(snapshot)
        #expect(FileShuffleMemory(file: file, folder: folder).load() == snapshot)
    }

    @Test("the well-formed control case of the corrupt-file test loads")
    func wellFormedLoads() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = "/srv/photos"
        let file = temp.file("shuffle.state")
        try "babyalbum-shuffle 1\nfolder /srv/photos\nlast x.png\nremaining a.png\nshown x.png\nend 2\n"
            .write(toFile: file, atomically: false, encoding: .utf8)
        #expect(
            FileShuffleMemory(file: file, folder: folder).load()
                == ShuffleSnapshot(
                    remaining: ["/srv/photos/a.png"], shown: ["/srv/photos/x.png"], last: "/srv/photos/x.png"))
    }

    @Test("saving into a folder that cannot hold it fails quietly")
    func saveFailureIsNotFatal() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let memory = FileShuffleMemory(file: temp.file("missing/shuffle.state"), folder: "/srv/photos")
        memory.save(ShuffleSnapshot(remaining: ["/srv/photos/a.png"]))
        #expect(memory.load() == nil)
    }

    @Test("the state directory: the installed one, else the photo folder (hidden file), else none")
    func defaultStateDirectory() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        try temp.makeDirectory("var-lib-babyalbum")
        let photos = temp.file("photos")
        #expect(
            FileShuffleMemory.defaultStateDirectory(photos: photos, installed: temp.file("var-lib-babyalbum"))
                == temp.file("var-lib-babyalbum"))
        #expect(FileShuffleMemory.defaultStateDirectory(photos: photos, installed: temp.file("absent")) == photos)
        #expect(
            FileShuffleMemory.defaultStateDirectory(photos: temp.file("no-photos"), installed: temp.file("absent"))
                == nil)
        let beside = FileShuffleMemory(stateDirectory: photos, folder: photos)
        #expect(beside?.file == photos + "/.babyalbum-shuffle", "hidden, so the scan skips it")
        #expect(FileShuffleMemory(stateDirectory: nil, folder: photos) == nil)
    }
}

@Suite("Shuffle state file: hostile files")
struct HostileShuffleStateTests {
    @Test("a FIFO as the state file is refused at once (a writer that comes later never gets to feed it)")
    func fifoDoesNotBlock() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = "/srv/photos"
        let state = "babyalbum-shuffle 1\nfolder /srv/photos\nremaining a.png\nend 1\n"
        // Positive control: the same text in a regular file loads.
        try state.write(toFile: temp.file("regular.state"), atomically: false, encoding: .utf8)
        #expect(FileShuffleMemory(file: temp.file("regular.state"), folder: folder).load() != nil)

        let fifo = temp.file("fifo.state")
        #expect(mkfifo(fifo, 0o600) == 0)
        let loaded = Mutex(false)
        // Only if the load is still blocked after two seconds does this feed the FIFO (and so
        // unblock it with a valid state); a load that refused the FIFO has returned long before.
        let feeder = Thread {
            Thread.sleep(forTimeInterval: 2)
            guard !loaded.withLock({ $0 }) else { return }
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            guard fd >= 0 else { return }
            _ = state.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        feeder.start()
        let snapshot = FileShuffleMemory(file: fifo, folder: folder).load()
        loaded.withLock { $0 = true }
        #expect(snapshot == nil, "a FIFO is not a state file")
    }

    @Test("a state file larger than the bound is ignored; one within it loads")
    func oversizedIgnored() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = "/srv/photos"
        func stateFile(bytes: Int) -> [UInt8] {
            let line = Array("remaining a-long-photo-name-to-fill-the-file.png\n".utf8)
            let count = bytes / line.count
            var text = Array("babyalbum-shuffle 1\nfolder /srv/photos\n".utf8)
            text.reserveCapacity(bytes + 64)
            for _ in 0..<count { text += line }
            return text + Array("end \(count)\n".utf8)
        }
        let small = temp.file("small.state")
        let large = temp.file("large.state")
        try Data(stateFile(bytes: 1 << 20)).write(to: URL(fileURLWithPath: small))
        try Data(stateFile(bytes: FileShuffleMemory.maximumFileSize + 4096)).write(to: URL(fileURLWithPath: large))
        #expect(FileShuffleMemory(file: small, folder: folder).load()?.remaining.count == (1 << 20) / 49)
        #expect(FileShuffleMemory(file: large, folder: folder).load() == nil)
    }

    @Test("names that are not UTF-8, or hold newlines and percent signs, survive a save and a load")
    func byteNamesRoundTrip() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = "/srv/photos"
        let latin1 = PhotoID(bytes: Array("/srv/photos/caf".utf8) + [0xE9, 0x0A, 0x25] + Array("41.png".utf8))
        let snapshot = ShuffleSnapshot(
            remaining: [latin1, PhotoID("/srv/photos/caf\u{E9}.png"), PhotoID("/srv/photos/cafe\u{301}.png")],
            shown: [], last: latin1)
        FileShuffleMemory(file: temp.file("s.state"), folder: folder).save(snapshot)
        #expect(FileShuffleMemory(file: temp.file("s.state"), folder: folder).load() == snapshot)
    }
}
