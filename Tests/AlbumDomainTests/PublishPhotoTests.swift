import AlbumDomain
import Clocks
import Testing

/// The interactor, driven by a test clock: no real sleeps anywhere.
@Suite struct PublishPhotoTests {
    let clock = TestClock()
    let interval = Duration.seconds(15)

    func makeInteractor(
        _ repository: ManualRepository, preparer: FakePreparer = FakePreparer(), seed: UInt64 = 1,
        limit: Int? = nil, log: EventLog = EventLog()
    ) -> PublishPhoto<TestClock<Duration>> {
        PublishPhoto(
            repository: repository, preparer: preparer, clock: clock, interval: interval,
            random: SplitMix64(seed: seed), presentationLimit: limit, events: { log.record($0) })
    }

    @Test func showsTheFirstPhotoAtOnceThenADifferentOneEachInterval() async throws {
        let repository = ManualRepository(.loaded(photos("a", "b", "c")))
        let interactor = makeInteractor(repository)
        var states = interactor.state.makeAsyncIterator()
        #expect(await states.next() == .initial)
        let run = Task { await interactor.run() }
        #expect(await states.next()?.content == .loading)
        let first = try #require(await states.next()?.shownPhotoID)

        await clock.advanceWhenTimerSleeps(by: .seconds(14))
        #expect(interactor.state.value.shownPhotoID == first, "nothing changes before the interval ends")
        await clock.advanceWhenTimerSleeps(by: .seconds(1))
        let second = try #require(await states.next()?.shownPhotoID)
        #expect(second != first)

        await clock.advanceWhenTimerSleeps(by: interval)
        let third = try #require(await states.next()?.shownPhotoID)
        #expect(third != second)
        #expect(Set([first, second, third]) == ["a", "b", "c"], "one round shows every photo once")
        run.cancel()
        await run.value
    }

    @Test func neverRepeatsAPhotoAndShowsEachOncePerRound() async throws {
        let names = ["a", "b", "c", "d"]
        let repository = ManualRepository(.loaded(names.map(Photo.init(id:))))
        let interactor = makeInteractor(repository, seed: 42)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        var shown = [try #require(await states.next()?.shownPhotoID)]
        for _ in 1..<200 {
            await clock.advanceWhenTimerSleeps(by: interval)
            shown.append(try #require(await states.next()?.shownPhotoID))
        }
        for (previous, next) in zip(shown, shown.dropFirst()) {
            #expect(previous != next)
        }
        for round in stride(from: 0, to: shown.count, by: names.count) {
            #expect(Set(shown[round..<round + names.count]) == Set(names), "round at \(round)")
        }
        run.cancel()
        await run.value
    }

    @Test func theSameSeedGivesTheSameOrderAndAnotherSeedAnother() async throws {
        func order(seed: UInt64) async throws -> [String] {
            let clock = TestClock()
            let repository = ManualRepository(.loaded(photos("a", "b", "c", "d", "e", "f")))
            let interactor = PublishPhoto(
                repository: repository, preparer: FakePreparer(), clock: clock, interval: interval,
                random: SplitMix64(seed: seed), presentationLimit: 12)
            let run = Task { await interactor.run() }
            var shown: [String] = []
            var states = interactor.state.makeAsyncIterator()
            while let state = await states.next() {
                if let id = state.shownPhotoID, id != shown.last {
                    shown.append(id)
                    if shown.count < 12 { await clock.advanceWhenTimerSleeps(by: interval) }
                }
            }
            await run.value
            return shown
        }
        let first = try await order(seed: 7)
        #expect(first.count == 12)
        #expect(try await order(seed: 7) == first)
        #expect(try await order(seed: 8) != first)
    }

    @Test func onePhotoStays() async throws {
        let preparer = FakePreparer()
        let repository = ManualRepository(.loaded(photos("only")))
        let interactor = makeInteractor(repository, preparer: preparer, limit: 3)
        let run = Task { await interactor.run() }
        var states = interactor.state.makeAsyncIterator()
        while await states.next()?.shownPhotoID == nil {}
        await clock.advanceWhenTimerSleeps(by: interval)
        await clock.advanceWhenTimerSleeps(by: interval)
        await run.value
        #expect(interactor.state.value.shownPhotoID == "only")
        #expect(preparer.preparedPhotos == ["only"], "the photo on screen is not decoded again")
    }

    @Test func loadingEmptyAndUnreadableAreDistinctStates() async throws {
        let repository = ManualRepository(.loading)
        let log = EventLog()
        let interactor = makeInteractor(repository, log: log)
        var states = interactor.state.makeAsyncIterator()
        #expect(await states.next()?.content == .nothingLoaded)
        let run = Task { await interactor.run() }
        #expect(await states.next()?.content == .loading)

        repository.publish(.loaded([]))
        #expect(await states.next()?.content == .noPhotos(.emptyAlbum))
        repository.publish(.failed(reason: "the photo folder /x does not exist"))
        #expect(await states.next()?.content == .failed(reason: "the photo folder /x does not exist"))
        repository.publish(.loaded(photos("a")))
        #expect(await states.next()?.shownPhotoID == "a")
        #expect(log.events.contains(.albumEmpty))
        #expect(log.events.contains(.photoListFailed(reason: "the photo folder /x does not exist")))
        run.cancel()
        await run.value
    }

    @Test func brokenPhotosAreSkippedAndLoggedOnce() async throws {
        let repository = ManualRepository(.loaded(photos("good", "bad1", "bad2")))
        let log = EventLog()
        let interactor = makeInteractor(repository, preparer: FakePreparer(broken: ["bad1", "bad2"]), log: log)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        #expect(await states.next()?.shownPhotoID == "good")
        for _ in 0..<6 {
            await clock.advanceWhenTimerSleeps(by: interval)
        }
        await Task.megaYield()
        #expect(interactor.state.value.shownPhotoID == "good", "the only good photo stays")
        let skips = log.events.filter { if case .photoSkipped = $0 { true } else { false } }
        #expect(skips.count == 2, "each broken photo is logged once: \(skips)")
        run.cancel()
        await run.value
    }

    @Test func aBrokenNextPhotoIsReplacedInTheBackgroundNotAtTheTick() async throws {
        let preparer = FakePreparer(broken: ["bad1", "bad2", "bad3"])
        let repository = ManualRepository(.loaded(photos("a", "b", "c", "bad1", "bad2", "bad3")))
        let log = EventLog()
        let interactor = makeInteractor(repository, preparer: preparer, seed: 5, log: log)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        var shown = [try #require(await states.next()?.shownPhotoID)]
        for _ in 0..<30 {
            // Background work (a failed preparation, and the one that replaces it) gets its turn.
            for _ in 0..<200 { await Task.detached(priority: .background) { await Task.yield() }.value }
            let preparedBefore = preparer.preparedPhotos.count
            await clock.advanceWhenTimerSleeps(by: interval)
            let photo = try #require(await states.next()?.shownPhotoID)
            let preparedAtTheTick = preparer.preparedPhotos.dropFirst(preparedBefore)
            #expect(!preparedAtTheTick.contains(photo), "\(photo) was prepared at the tick, not before it")
            shown.append(photo)
        }
        #expect(Set(shown) == ["a", "b", "c"])
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
        let failures = log.events.filter {
            switch $0 {
            case .photoRetryLater, .photoSkipped: true
            default: false
            }
        }
        #expect(failures.count == 6, "each broken photo failed twice, then was skipped: \(failures)")
        run.cancel()
        await run.value
    }

    @Test func anAlbumOfBrokenPhotosShowsBlackAndSaysWhyOnce() async throws {
        let repository = ManualRepository(.loaded(photos("x", "y")))
        let log = EventLog()
        let interactor = makeInteractor(repository, preparer: FakePreparer(broken: ["x", "y"]), log: log)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        #expect(await states.next()?.content == .noPhotos(.noneReadable(skipped: 2)))
        #expect(log.events.filter { $0 == .noReadablePhotos(skipped: 2) }.count == 1)
        #expect(FrameViewModel(state: interactor.state.value, scale: .fill).content
            == .black(reason: "none of the 2 photos could be read"))
        run.cancel()
        await run.value
    }

    @Test func newPhotosJoinTheRotationAndRemovedOnesLeaveIt() async throws {
        let repository = ManualRepository(.loaded(photos("a", "b")))
        let interactor = makeInteractor(repository)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        _ = await states.next()
        repository.publish(.loaded(photos("c", "d")))
        await Task.megaYield()
        var shown: [String] = []
        for _ in 0..<6 {
            await clock.advanceWhenTimerSleeps(by: interval)
            shown.append(try #require(await states.next()?.shownPhotoID))
        }
        #expect(Set(shown) == ["c", "d"], "removed photos are never chosen again: \(shown)")
        run.cancel()
        await run.value
    }

    @Test func displayPowerIsAnAction() async throws {
        let repository = ManualRepository(.loaded(photos("a", "b")))
        let interactor = makeInteractor(repository)
        var states = interactor.state.makeAsyncIterator()
        _ = await states.next()
        let run = Task { await interactor.run() }
        _ = await states.next()
        let shown = try #require(await states.next()?.shownPhotoID)
        interactor.send(.displayPowerRequested(.off))
        let blanked = try #require(await states.next())
        #expect(blanked.displayPower == .off)
        #expect(blanked.shownPhotoID == shown, "the slideshow keeps its place")
        #expect(FrameViewModel(state: blanked, scale: .fit).displayPower == .off)
        run.cancel()
        await run.value
    }

    @Test func stopsAfterThePresentationLimitAndFinishesTheState() async throws {
        let repository = ManualRepository(.loaded(photos("a", "b", "c")))
        let interactor = makeInteractor(repository, limit: 2)
        let run = Task { await interactor.run() }
        var states = interactor.state.makeAsyncIterator()
        while await states.next()?.shownPhotoID == nil {}
        await clock.advanceWhenTimerSleeps(by: interval)
        await run.value
        var rest: [AlbumState] = []
        while let state = await states.next() { rest.append(state) }
        #expect(rest.count <= 1, "the stream ends after the last state")
    }
}
