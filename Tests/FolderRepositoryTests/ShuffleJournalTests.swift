import AlbumDomain
import FolderRepository
import Foundation
import TestSupport
import Testing

@Suite("Shuffle state: journal, batching, leftovers")
struct ShuffleJournalTests {
    static let folder = "/srv/photos"

    /// A round over `count` photos, and the snapshots after each of the first `shows` picks.
    static func round(count: Int, shows: Int) -> [ShuffleSnapshot] {
        var shuffle = PhotoShuffle()
        var random = SplitMix64(seed: 7)
        let photos = (0..<count).map { Photo(id: PhotoID("\(folder)/2024/holiday-\($0).jpg")) }
        shuffle.replacePhotos(with: photos, using: &random)
        var snapshots: [ShuffleSnapshot] = []
        for _ in 0..<shows {
            _ = shuffle.next(using: &random)
            snapshots.append(shuffle.snapshot)
        }
        return snapshots
    }

    static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("photos shown are appended to the journal; the state file is not rewritten; a restart continues")
    func journalAppends() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let snapshots = Self.round(count: 50, shows: 6)
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .zero)
        memory.save(snapshots[0])
        let base = try #require(Self.text(memory.file))
        for snapshot in snapshots.dropFirst() { memory.save(snapshot) }
        #expect(Self.text(memory.file) == base, "the state file is written once")
        let journal = try #require(Self.text(memory.journal))
        #expect(journal.hasPrefix("babyalbum-shuffle-journal 1 "))
        #expect(journal.split(separator: "\n").count == 1 + 5, "a header and one line per photo shown")
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots.last)
    }

    @Test("a new round rewrites the state file and removes the journal")
    func newRoundCompacts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let snapshots = Self.round(count: 4, shows: 6)  // the fifth pick starts a new round
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .zero)
        for snapshot in snapshots.prefix(4) { memory.save(snapshot) }
        #expect(FileManager.default.fileExists(atPath: memory.journal))
        memory.save(snapshots[4])
        #expect(!FileManager.default.fileExists(atPath: memory.journal), "compacted when the round ended")
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[4])
        memory.save(snapshots[5])
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[5])
    }

    @Test("a journal whose last line was cut short by a power cut: its whole lines count, then it is rewritten")
    func halfWrittenTail() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let snapshots = Self.round(count: 50, shows: 4)
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .zero)
        for snapshot in snapshots.prefix(3) { memory.save(snapshot) }
        let whole = try #require(Self.text(memory.journal))
        let shown = try #require(snapshots[3].last).description.split(separator: "/").last ?? ""
        // The fourth line, half written.
        try (whole + "shown 2024/" + shown.prefix(4)).write(toFile: memory.journal, atomically: false, encoding: .utf8)

        let after = FileShuffleMemory(file: memory.file, folder: Self.folder, saveInterval: .zero)
        #expect(after.load() == snapshots[2], "the cut line is dropped, the whole ones taken")
        after.save(snapshots[3])
        #expect(!FileManager.default.fileExists(atPath: after.journal), "the damaged journal is not appended to")
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[3])

        // Control: the same journal with its line whole is taken.
        for snapshot in snapshots.prefix(3) { after.save(snapshot) }
        let control = FileShuffleMemory(file: memory.file, folder: Self.folder, saveInterval: .zero)
        #expect(control.load() == snapshots[2])
    }

    @Test("a journal of an older state file, or a garbage line, is not applied past that point")
    func staleOrGarbageJournal() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let snapshots = Self.round(count: 50, shows: 3)
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .zero)
        memory.save(snapshots[0])
        memory.save(snapshots[1])
        let journal = try #require(Self.text(memory.journal))
        try journal.replacingOccurrences(of: "journal 1 ", with: "journal 1 0").write(
            toFile: memory.journal, atomically: false, encoding: .utf8)
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[0], "stale journal")
        try (journal + "remaining 2024/x.jpg\nshown 2024/y.jpg\n").write(
            toFile: memory.journal, atomically: false, encoding: .utf8)
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[1], "stops at garbage")
    }

    @Test("saves within the save interval are held until the interval passes, a flush, or exit")
    func batching() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let snapshots = Self.round(count: 50, shows: 3)
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .seconds(3600))
        memory.save(snapshots[0])
        memory.save(snapshots[1])
        memory.save(snapshots[2])
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[0], "held")
        memory.flush()
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots[2])
    }

    @Test("a temporary file left by a crash is removed at the next start; a save leaves none")
    func leftoverTemporaryRemoved() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try temp.makeDirectory("photos")
        let photos = temp.file("photos")
        try "babyalbum-shuffle 1\nfolder \(photos)\nremaining a.png\n".write(
            toFile: temp.file("photos/.babyalbum-shuffle.tmp"), atomically: false, encoding: .utf8)
        let memory = try #require(FileShuffleMemory(stateDirectory: photos, folder: photos))
        #expect(memory.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: temp.file("photos/.babyalbum-shuffle.tmp")))
        memory.save(ShuffleSnapshot(remaining: [PhotoID("\(photos)/a.png")]))
        let names = try FileManager.default.contentsOfDirectory(atPath: photos)
        #expect(names == [".babyalbum-shuffle"], "only the state file")
    }

    @Test("bytes written per photo shown, with 10,000 photos: the journal against a whole rewrite")
    func bytesPerPhoto() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let shows = 100
        let snapshots = Self.round(count: 10_000, shows: shows)
        let memory = FileShuffleMemory(file: temp.file("s.state"), folder: Self.folder, saveInterval: .zero)
        memory.save(snapshots[0])
        let first = memory.bytesWritten
        for snapshot in snapshots.dropFirst() { memory.save(snapshot) }
        let perPhoto = Double(memory.bytesWritten - first) / Double(shows - 1)
        // What the whole-file rewrite on every photo wrote: the state file's size.
        let rewrite = Double(first)
        print("shuffle state, 10,000 photos: \(Int(rewrite)) bytes per photo rewritten whole, \(perPhoto) journaled")
        #expect(perPhoto < 64, "one short line per photo")
        #expect(rewrite > 100_000, "a whole round of 10,000 names")
        #expect(FileShuffleMemory(file: memory.file, folder: Self.folder).load() == snapshots.last)
    }
}
