import AlbumDomain
import Clocks
import Testing

@testable import FolderRepository

/// The pure readiness and publication model on a test clock: no folder, no thread, no sleep.
@Suite("Folder readiness model")
struct FolderReadinessTests {
    let timing = FolderWatchTiming(
        settleTime: .milliseconds(500), quietTimeForOpenFiles: .seconds(10), firstListPatience: .milliseconds(250),
        minimumPublicationInterval: .zero)

    /// The key of `name` in the folder `/p` (its path is the photo's id).
    func key(_ name: String) -> FileKey { FileKey(folder: 1, path: Array(("/p/" + name).utf8)) }
    func seen(size: Int64 = 10, mode: UInt32 = 0o100644, old: Bool = false, link: Bool = false) -> FileObservation {
        FileObservation(
            signature: FileSignature(size: size, modified: 1, inode: 7, access: FileAccess(mode: mode)),
            modifiedLongAgo: old, isLink: link)
    }
    func names(_ lists: [[Photo]]) -> [[String]] {
        lists.map { $0.map { String(decoding: $0.id.bytes.dropFirst(3), as: UTF8.self) } }
    }

    @Test("old files found by the scan are one list, published when the scan ends, in byte order")
    func oldFilesAreOneList() {
        var model = FolderReadiness(clock: TestClock<Duration>(), timing: timing)
        model.folderOpened()
        model.observe(key("b.png"), seen(old: true), cause: .scan)
        #expect(model.publication(scanSettled: false).isEmpty, "the scan runs, the patience has not run out")
        model.observe(key("a.png"), seen(old: true), cause: .scan)
        #expect(names(model.publication(scanSettled: true)) == [["a.png", "b.png"]])
        #expect(model.publication(scanSettled: true).isEmpty, "nothing changed since")
    }

    @Test("a recent file waits for the settle time, and waits again if it changed meanwhile")
    func recentFileSettles() async {
        let clock = TestClock<Duration>()
        var model = FolderReadiness(clock: clock, timing: timing)
        model.folderOpened()
        model.observe(key("a.png"), seen(size: 10), cause: .scan)
        #expect(model.publication(scanSettled: true).isEmpty, "the only file is not ready yet")
        #expect(model.dueRechecks().isEmpty)
        #expect(model.nextDeadline == clock.now.advanced(by: .milliseconds(250)), "the first list's patience")
        await clock.advance(by: .milliseconds(250))
        #expect(model.dueRechecks().isEmpty)
        #expect(model.nextDeadline == clock.now.advanced(by: .milliseconds(250)), "then the settle time")
        await clock.advance(by: .milliseconds(250))
        let due = model.dueRechecks()
        #expect(due == [.init(key: key("a.png"), expecting: .settling)])
        model.recheck(due[0], signature: seen(size: 20).signature)
        #expect(model.publication(scanSettled: true).isEmpty, "it grew: not ready yet")
        await clock.advance(by: .milliseconds(500))
        for recheck in model.dueRechecks() { model.recheck(recheck, signature: seen(size: 20).signature) }
        #expect(names(model.publication(scanSettled: true)) == [["a.png"]])
    }

    @Test("a created file is ready when closed; one left open, after the quiet time; a link after the settle time")
    func createdFiles() async {
        let clock = TestClock<Duration>()
        var model = FolderReadiness(clock: clock, timing: timing)
        model.folderOpened()
        _ = model.publication(scanSettled: true)
        model.observe(key("closed.png"), seen(), cause: .created)
        model.observe(key("open.png"), seen(), cause: .created)
        model.observe(key("link.png"), seen(link: true), cause: .created)
        #expect(model.isWriting(key("open.png")))
        model.observe(key("closed.png"), seen(), cause: .closedAfterWrite)
        #expect(names(model.publication(scanSettled: true)) == [["closed.png"]])
        await clock.advance(by: .milliseconds(500))
        for recheck in model.dueRechecks() { model.recheck(recheck, signature: seen().signature) }
        #expect(names(model.publication(scanSettled: true)) == [["closed.png", "link.png"]])
        await clock.advance(by: .seconds(10))
        for recheck in model.dueRechecks() { model.recheck(recheck, signature: seen().signature) }
        #expect(names(model.publication(scanSettled: true)) == [["closed.png", "link.png", "open.png"]])
    }

    @Test("a chmod on a published photo makes it leave the list once and come back; an unchanged IN_ATTRIB does not")
    func attributeChangeRepublishes() {
        var model = FolderReadiness(clock: TestClock<Duration>(), timing: timing)
        model.folderOpened()
        model.observe(key("a.png"), seen(mode: 0o100000, old: true), cause: .scan)
        model.observe(key("b.png"), seen(old: true), cause: .scan)
        #expect(names(model.publication(scanSettled: true)) == [["a.png", "b.png"]])
        model.observe(key("b.png"), seen(old: true), cause: .attributesChanged)
        #expect(model.publication(scanSettled: true).isEmpty, "control: nothing changed, nothing published")
        model.observe(key("a.png"), seen(mode: 0o100644), cause: .attributesChanged)
        #expect(names(model.publication(scanSettled: true)) == [["b.png"], ["a.png", "b.png"]])
    }

    @Test("a removed photo leaves the list; a removed file that never was published changes nothing")
    func removal() {
        var model = FolderReadiness(clock: TestClock<Duration>(), timing: timing)
        model.folderOpened()
        model.observe(key("a.png"), seen(old: true), cause: .scan)
        model.observe(key("b.png"), seen(old: true), cause: .scan)
        _ = model.publication(scanSettled: true)
        model.remove(key("a.png"))
        #expect(names(model.publication(scanSettled: true)) == [["b.png"]])
        model.observe(key("c.png"), seen(), cause: .created)
        model.remove(key("c.png"))
        #expect(model.publication(scanSettled: true).isEmpty)
    }

    @Test("a long first scan publishes after the patience, then each time the count doubles, then in full")
    func firstScanIsPaced() async {
        let clock = TestClock<Duration>()
        var model = FolderReadiness(clock: clock, timing: timing)
        model.folderOpened()
        func add(_ range: Range<Int>) {
            for n in range { model.observe(key("\(n).png"), seen(old: true), cause: .scan) }
        }
        add(0..<3)
        #expect(model.publication(scanSettled: false).isEmpty)
        await clock.advance(by: .milliseconds(250))
        #expect(model.publication(scanSettled: false).map(\.count) == [3], "patience ran out: what is ready")
        add(3..<5)
        #expect(model.publication(scanSettled: false).isEmpty, "5 < 2 × 3")
        add(5..<6)
        #expect(model.publication(scanSettled: false).map(\.count) == [6])
        add(6..<7)
        #expect(model.publication(scanSettled: true).map(\.count) == [7], "the full list when the scan ends")
        add(7..<8)
        #expect(model.publication(scanSettled: true).map(\.count) == [8], "after that, every change")
    }

    @Test("ids keep their bytes: NFC and NFD names are two photos, a Latin-1 name is one")
    func bytesAreKept() {
        var model = FolderReadiness(clock: TestClock<Duration>(), timing: timing)
        model.folderOpened()
        let names: [[UInt8]] = [Array("caf\u{E9}.png".utf8), Array("cafe\u{301}.png".utf8), [0x63, 0xE9, 0x2E, 0x70]]
        for name in names {
            model.observe(FileKey(folder: 1, name: name), seen(old: true), cause: .scan)
        }
        let published = model.publication(scanSettled: true)
        #expect(published.count == 1)
        #expect(Set(published[0].map(\.id.bytes)) == Set(names))
    }
}

@Suite("Folder readiness model: bursts")
struct FolderReadinessBurstTests {
    @Test("a burst of changes after the first list is published at most once per interval; a lone change at once")
    func burstsAreCoalesced() async {
        let clock = TestClock<Duration>()
        var model = FolderReadiness(
            clock: clock, timing: FolderWatchTiming(minimumPublicationInterval: .milliseconds(100)))
        func closed(_ name: String) {
            let key = FileKey(folder: 1, name: Array(name.utf8))
            let seen = FileObservation(
                signature: FileSignature(size: 1, modified: 1, inode: 1), modifiedLongAgo: false, isLink: false)
            model.observe(key, seen, cause: .closedAfterWrite)
        }
        model.folderOpened()
        #expect(model.publication(scanSettled: true).map(\.count) == [0], "the (empty) first list")
        await clock.advance(by: .seconds(1))
        closed("a.png")
        #expect(model.publication(scanSettled: true).map(\.count) == [1], "a lone change goes out at once")
        for n in 0..<50 {
            await clock.advance(by: .milliseconds(1))
            closed("burst-\(n).png")
            #expect(model.publication(scanSettled: true).isEmpty, "within the interval: held back")
        }
        #expect(model.nextDeadline == clock.now.advanced(by: .milliseconds(50)))
        await clock.advance(by: .milliseconds(50))
        #expect(model.publication(scanSettled: true).map(\.count) == [51], "the whole burst as one list")
        #expect(model.nextDeadline == nil, "nothing left to do")
    }
}
