import AlbumDomain
import FolderRepository
import Foundation
import Testing

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
            remaining: ["\(folder)/b.png", "\(folder)/sub/c.png", "/elsewhere/linked.png"],
            shown: ["\(folder)/a.png", "\(folder)/odd\nname%0A.png"],
            last: "\(folder)/odd\nname%0A.png")

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
        #expect(viaLink?.load()?.remaining.first == temp.file("link/b.png"))

        // The next save replaces it.
        let next = ShuffleSnapshot(
            remaining: ["\(folder)/sub/c.png"], shown: ["\(folder)/b.png"], last: "\(folder)/b.png")
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

        let snapshot = ShuffleSnapshot(remaining: ["\(folder)/a.png"], shown: [], last: nil)
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
