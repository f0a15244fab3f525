import AlbumDomain
import Clocks
import Synchronization
import Testing

/// A memory that keeps the snapshot in memory, as a file would across a restart.
final class MemoryBox: ShuffleMemory {
    private let stored: Mutex<ShuffleSnapshot?>
    init(_ snapshot: ShuffleSnapshot? = nil) { stored = Mutex(snapshot) }
    var snapshot: ShuffleSnapshot? { stored.withLock { $0 } }
    func load() -> ShuffleSnapshot? { stored.withLock { $0 } }
    func save(_ snapshot: ShuffleSnapshot) { stored.withLock { $0 = snapshot } }
}

/// A preparer that fails for the first `failures` attempts of each photo named in `flaky`.
final class FlakyPreparer: FramePreparing {
    struct Failed: Error {}
    let flaky: Set<String>
    let failures: Int
    private let attempts = Mutex<[String: Int]>([:])
    init(flaky: Set<String>, failures: Int) {
        self.flaky = flaky
        self.failures = failures
    }
    func prepareFrame(for photo: Photo) async throws -> Frame {
        let attempt = attempts.withLock { attempts in
            attempts[photo.id, default: 0] += 1
            return attempts[photo.id]!
        }
        if flaky.contains(photo.id), attempt <= failures { throw Failed() }
        return Frame(size: FrameSize(width: 1, height: 1), pixels: [UInt32(truncatingIfNeeded: photo.id.hashValue)])
    }
}

@Suite struct ShuffleMemoryWiringTests {
    let clock = TestClock()
    let interval = Duration.seconds(15)

    @Test func theRoundContinuesAfterARestart() async throws {
        let names = (0..<8).map { "p\($0)" }
        let memory = MemoryBox()
        var shownBefore: [String] = []
        do {
            let interactor = PublishPhoto(
                repository: ManualRepository(.loaded(names.map(Photo.init(id:)))), preparer: FakePreparer(),
                clock: clock, interval: interval, random: SplitMix64(seed: 3), memory: memory)
            var states = interactor.state.makeAsyncIterator()
            _ = await states.next()
            let run = Task { await interactor.run() }
            _ = await states.next()
            shownBefore.append(try #require(await states.next()?.shownPhotoID))
            for _ in 0..<2 {
                await clock.advanceWhenTimerSleeps(by: interval)
                shownBefore.append(try #require(await states.next()?.shownPhotoID))
            }
            run.cancel()
            await run.value
        }
        let saved = try #require(memory.snapshot)
        #expect(saved.shown == shownBefore)
        #expect(saved.last == shownBefore.last)
        #expect(Set(saved.remaining) == Set(names).subtracting(shownBefore))

        // The power comes back, with a different seed: the round goes on with what was left.
        let interactor = PublishPhoto(
            repository: ManualRepository(.loaded(names.map(Photo.init(id:)))), preparer: FakePreparer(),
            clock: clock, interval: interval, random: SplitMix64(seed: 99), memory: memory)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        var shownAfter = [try #require(await states.next()?.shownPhotoID)]
        for _ in 0..<4 {
            await clock.advanceWhenTimerSleeps(by: interval)
            shownAfter.append(try #require(await states.next()?.shownPhotoID))
        }
        #expect(Set(shownAfter) == Set(names).subtracting(shownBefore), "no repeats across the restart")
        run.cancel()
        await run.value
    }

    @Test func aPhotoThatFailsOnceIsRetriedOnceLater() async throws {
        let log = EventLog()
        let interactor = PublishPhoto(
            repository: ManualRepository(.loaded(photos("a", "b", "c"))),
            preparer: FlakyPreparer(flaky: ["a", "b", "c"], failures: 1), clock: clock, interval: interval,
            random: SplitMix64(seed: 1), events: { log.record($0) })
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        var shown = [try #require(await states.next()?.shownPhotoID)]
        for _ in 0..<2 {
            await clock.advanceWhenTimerSleeps(by: interval)
            shown.append(try #require(await states.next()?.shownPhotoID))
        }
        #expect(Set(shown) == ["a", "b", "c"], "every photo shown on its second try: \(shown)")
        #expect(!log.events.contains { if case .photoSkipped = $0 { true } else { false } })
        #expect(log.events.filter { if case .photoRetryLater = $0 { true } else { false } }.count == 3)
        run.cancel()
        await run.value
    }

    @Test func aSkippedPhotoGetsANewChanceWhenItsFileIsReplaced() async throws {
        let log = EventLog()
        let repository = ManualRepository(.loaded(photos("good", "bad")))
        let interactor = PublishPhoto(
            repository: repository, preparer: FlakyPreparer(flaky: ["bad"], failures: 2), clock: clock,
            interval: interval, random: SplitMix64(seed: 1), events: { log.record($0) })
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        #expect(await states.next()?.shownPhotoID == "good")
        let bad = Photo(id: "bad")
        for _ in 0..<3 { await clock.advanceWhenTimerSleeps(by: interval) }
        #expect(await log.eventually { $0.contains(.photoSkipped(bad, reason: "Failed()")) })
        // The folder repository publishes a replaced file as gone, then back.
        repository.publish(.loaded(photos("good")))
        repository.publish(.loaded(photos("good", "bad")))
        var ticks = log.events.filter { $0 == .intervalElapsed }.count
        for _ in 0..<4 where !log.events.contains(.photoShown(bad)) {
            await clock.advanceWhenTimerSleeps(by: interval)
            ticks += 1
            _ = await log.eventually { events in events.filter { $0 == .intervalElapsed }.count >= ticks }
        }
        let shown = await log.eventually { $0.contains(.photoShown(bad)) }
        #expect(shown, "shown after its file was replaced: \(log.events)")
        run.cancel()
        await run.value
    }
}
