import AlbumDomain
import AlbumRuntime
import Clocks
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The runner with a test clock: real effects (a preparer on the runner's queue, a memory),
/// time moved by the test. The tests wait for states, never by spinning or sleeping.
@Suite struct AlbumRunnerTests {
    let screen = FrameSize(width: 8, height: 4)

    @Test func showsTheFirstPhotoAtOnceThenAnotherAtEachTickOfTheClock() async throws {
        let clock = TestClock()
        let preparer = RecordingPreparer()
        let runner = AlbumRunner(reducer: PublishPhoto(interval: .seconds(15)), clock: clock, preparer: preparer)
        let run = Task {
            await runner.run(
                repository: FixedRepository(["a", "b", "c"]), frameSize: screen, random: SplitMix64(seed: 1))
        }
        var states = runner.state.makeAsyncIterator()
        let first = try #require(await nextShownPhoto(&states, after: nil))
        var shown = [first]
        for _ in 0..<5 {
            await untilSomethingSleeps(on: clock)
            await clock.advance(by: .seconds(15))
            shown.append(try #require(await nextShownPhoto(&states, after: shown.last)))
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
        #expect(Set(shown.prefix(3)) == ["a", "b", "c"])
        #expect(preparer.calls.allSatisfy { $0.size == screen })
        #expect(preparer.calls.allSatisfy { !$0.onSwiftTask }, "frames are prepared off Swift's cooperative pool")
        runner.send(.stopSignalReceived(15))
        await run.value
        #expect(runner.state.value.end == .signal(15))
    }

    @Test func theExitButtonEndsTheRunAndTheStateSaysSo() async throws {
        let runner = AlbumRunner(
            reducer: PublishPhoto(interval: .seconds(15)), clock: TestClock(), preparer: RecordingPreparer())
        let run = Task {
            await runner.run(repository: FixedRepository(["a", "b"]), frameSize: screen, random: SplitMix64(seed: 2))
        }
        var states = runner.state.makeAsyncIterator()
        _ = try #require(await nextShownPhoto(&states, after: nil))
        let request = ExitRequest(device: "gpio-keys", key: "KEY_POWER")
        runner.send(.exitButtonHeld(request))
        await run.value
        #expect(runner.state.value.end == .exitButton(request))
        #expect(FrameViewModel(state: runner.state.value).content == .ended)
        var rest: [AlbumState] = []
        while let state = await states.next() { rest.append(state) }
        #expect(rest.last?.end == .exitButton(request), "the flow ends with the ended state")
    }

    @Test func theRoundIsSavedAndLoadedThroughTheMemory() async throws {
        let memory = RecordingMemory(saved: ShuffleSnapshot(remaining: ["c"], shown: ["a", "b"], last: "b"))
        let runner = AlbumRunner(
            reducer: PublishPhoto(interval: .seconds(15), presentationLimit: 1), clock: TestClock(),
            preparer: RecordingPreparer(), memory: memory)
        await runner.run(repository: FixedRepository(["a", "b", "c"]), frameSize: screen, random: SplitMix64(seed: 5))
        #expect(runner.state.value.end == .countReached(1))
        if case .showing(let shown) = runner.state.value.content {
            #expect(shown.photo == Photo(id: "c"), "the saved round goes on with the photo it had left")
        } else {
            Issue.record("no photo shown: \(runner.state.value)")
        }
        #expect(await memory.eventuallySaved { $0.shown == ["a", "b", "c"] })
    }

    @Test func theRunReturnsOnlyAfterItsQueuedSavesAreWritten() async throws {
        // A slow disk: each save takes 300 ms. A process that exits when run() returns (a
        // --count exit) must not cut a save short, which left a temporary file behind.
        let memory = SlowMemory()
        let runner = AlbumRunner(
            reducer: PublishPhoto(interval: .seconds(15), presentationLimit: 1), clock: TestClock(),
            preparer: RecordingPreparer(), memory: memory)
        await runner.run(repository: FixedRepository(["a", "b"]), frameSize: screen, random: SplitMix64(seed: 3))
        #expect(runner.state.value.end == .countReached(1))
        #expect(memory.started > 0)
        #expect(memory.finished == memory.started, "every save begun before the end is finished")
    }

    @Test func aFailingPreparationIsReportedAndAnotherPhotoShows() async throws {
        var triedTheBrokenOneFirst = 0
        for seed in UInt64(0)..<8 {
            let events = Mutex<[AlbumEvent]>([])
            let preparer = RecordingPreparer(broken: ["bad"])
            let runner = AlbumRunner(
                reducer: PublishPhoto(interval: .seconds(15), presentationLimit: 1), clock: TestClock(),
                preparer: preparer, events: { event in events.withLock { $0.append(event) } })
            await runner.run(
                repository: FixedRepository(["bad", "good"]), frameSize: screen, random: SplitMix64(seed: seed))
            #expect(runner.state.value.content.shownPhotoID == "good", "seed \(seed)")
            guard preparer.calls.first?.photo == Photo(id: "bad") else { continue }
            triedTheBrokenOneFirst += 1
            #expect(events.withLock { $0 }.contains(.photoRetryLater(Photo(id: "bad"), reason: "broken on purpose")))
        }
        #expect(triedTheBrokenOneFirst > 0, "some seed starts with the broken photo")
    }
}

/// Waits until a task sleeps on `clock` (the runner's next tick). `advance` wakes only the sleeps
/// made before it: where the runner is slow to reach its sleep (arm64 under qemu-user), an earlier
/// advance would pass it by, and the runner would sleep for 15 s of a clock that no longer moves.
func untilSomethingSleeps(on clock: TestClock<Duration>) async {
    // checkSuspension throws when something sleeps; each call yields to the other tasks first.
    while (try? await clock.checkSuspension()) != nil {}
}

/// Waits for the next state showing a photo other than `previous`; `nil` when the flow ends.
func nextShownPhoto(_ states: inout AsyncStream<AlbumState>.Iterator, after previous: String?) async -> String? {
    while let state = await states.next() {
        if let id = state.content.shownPhotoID, id != previous { return id }
    }
    return nil
}

extension AlbumState.Content {
    var shownPhotoID: String? {
        if case .showing(let shown) = self { return shown.photo.description }
        return nil
    }
}

/// A repository with a fixed list.
struct FixedRepository: PhotoRepository {
    let names: [String]
    init(_ names: [String]) { self.names = names }

    func photoListStates() -> AsyncStream<PhotoListState> {
        AsyncStream { continuation in
            continuation.yield(.loaded(names.map { Photo(id: PhotoID($0)) }))
        }
    }
}

/// Makes black frames, fails for the photos named broken, and records every call.
final class RecordingPreparer: FramePreparing {
    struct Call: Sendable {
        let photo: Photo
        let size: FrameSize
        let onSwiftTask: Bool
    }
    struct Broken: Error, CustomStringConvertible { var description: String { "broken on purpose" } }

    private let broken: Set<String>
    private let recorded = Mutex<[Call]>([])

    init(broken: Set<String> = []) { self.broken = broken }

    var calls: [Call] { recorded.withLock { $0 } }

    func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame {
        let onSwiftTask = withUnsafeCurrentTask { $0 != nil }
        recorded.withLock { $0.append(Call(photo: photo, size: size, onSwiftTask: onSwiftTask)) }
        if broken.contains(photo.description) { throw Broken() }
        return Frame.black(size)
    }
}

/// A shuffle memory in memory, announcing each save.
final class RecordingMemory: ShuffleMemory {
    private let stored: Mutex<ShuffleSnapshot?>
    let saves: AsyncStream<ShuffleSnapshot>
    private let saveSink: AsyncStream<ShuffleSnapshot>.Continuation

    init(saved: ShuffleSnapshot?) {
        stored = Mutex(saved)
        (saves, saveSink) = AsyncStream.makeStream(of: ShuffleSnapshot.self)
    }

    func load() -> ShuffleSnapshot? { stored.withLock { $0 } }

    func save(_ snapshot: ShuffleSnapshot) {
        stored.withLock { $0 = snapshot }
        saveSink.yield(snapshot)
    }

    /// Whether a save matching `condition` arrives (the runner saves on a queue of its own).
    func eventuallySaved(_ condition: (ShuffleSnapshot) -> Bool) async -> Bool {
        for await snapshot in saves where condition(snapshot) { return true }
        return false
    }
}

/// A shuffle memory on a slow disk: each save takes 300 ms; counts saves begun and finished.
final class SlowMemory: ShuffleMemory {
    private let counts = Mutex((started: 0, finished: 0))

    var started: Int { counts.withLock { $0.started } }
    var finished: Int { counts.withLock { $0.finished } }

    func load() -> ShuffleSnapshot? { nil }

    func save(_ snapshot: ShuffleSnapshot) {
        counts.withLock { $0.started += 1 }
        usleep(300_000)
        counts.withLock { $0.finished += 1 }
    }
}
