import AlbumDomain
import Testing

/// The reducer, step by step: every action's new state and its exact effects.
@Suite struct PublishPhotoTests {
    /// A store showing its first photo, at t=0, with the next one asked for.
    /// Returns the store, the photo on screen and the photo being prepared.
    func showingFirstPhoto(_ names: [String], seed: UInt64 = 1) -> (AlbumTestStore, Photo, Photo) {
        var store = AlbumTestStore(seed: seed)
        store.send(.started(frameSize: screen, savedRound: nil))
        store.receive([])
        let first = store.send(.photoListChanged(.loaded(names.map { Photo(id: PhotoID($0)) }))).preparedPhoto!
        _ = store.takeEffects()
        let effects = store.send(.framePrepared(first, frame(), now: at(0)))
        let next = effects.preparedPhoto!
        store.receive([
            .report(.photoShown(first)), .saveRound(store.roundSaved(showing: first, before: next)),
            .scheduleTick(at: at(15)), .prepareFrame(next, size: screen),
        ])
        return (store, first, next)
    }

    @Test func startingLoadsThenAsksForTheFirstFrameAndShowsItWhenReady() {
        var store = AlbumTestStore()
        #expect(store.state == .initial)
        store.send(.started(frameSize: screen, savedRound: nil))
        store.receive([])
        #expect(store.state.content == .loading)
        let first = store.send(.photoListChanged(.loaded(photos("a", "b", "c")))).preparedPhoto
        store.receive([.prepareFrame(first!, size: screen)])
        #expect(store.state.content == .loading, "nothing shows before its frame is ready")
        let shownFrame = frame()
        let next = store.send(.framePrepared(first!, shownFrame, now: at(0))).preparedPhoto
        #expect(next != nil && next != first)
        store.receive([
            .report(.photoShown(first!)), .saveRound(store.roundSaved(showing: first!, before: next!)),
            .scheduleTick(at: at(15)), .prepareFrame(next!, size: screen),
        ])
        #expect(store.state.content == .showing(ShownPhoto(photo: first!, frame: shownFrame)))
    }

    @Test func aTickSwapsInTheFramePreparedBeforeItAndSchedulesTheNextOneIntervalLater() {
        var (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(3)))
        store.receive([])
        #expect(store.shownID == first.description, "a prepared frame waits for its tick")
        store.send(.intervalElapsed(now: at(14)))
        store.receive([])
        #expect(store.shownID == first.description, "a tick that fires before its deadline is not the tick due")
        let third = store.send(.intervalElapsed(now: at(15))).preparedPhoto!
        store.receive([
            .report(.intervalElapsed), .report(.photoShown(next)),
            .saveRound(store.roundSaved(showing: next, before: third)), .scheduleTick(at: at(30)),
            .prepareFrame(third, size: screen),
        ])
        #expect(store.state.content == .showing(ShownPhoto(photo: next, frame: nextFrame)))
        #expect(Set([first, next, third]) == Set(photos("a", "b", "c")), "one round shows every photo once")
    }

    @Test func aScheduleThatFellBehindShowsOnePhotoThenWaitsAWholeInterval() {
        var (store, _, next) = showingFirstPhoto(["a", "b", "c"])
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        // The process was stopped for 100 s: the tick due at 15 fires at 115.
        let effects = store.send(.intervalElapsed(now: at(115)))
        #expect(effects.contains(.scheduleTick(at: at(130))))
        #expect(effects.filter { if case .report(.photoShown) = $0 { true } else { false } }.count == 1)
        _ = store.takeEffects()
        store.send(.intervalElapsed(now: at(116)))
        store.receive([])
    }

    @Test func aFrameThatIsLateForItsTickShowsWhenReadyAndTheIntervalCountsFromThere() {
        var (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([.report(.intervalElapsed)])
        #expect(store.shownID == first.description, "the photo stays until the next one is ready")
        let third = store.send(.framePrepared(next, frame(), now: at(22))).preparedPhoto!
        store.receive([
            .report(.photoShown(next)), .saveRound(store.roundSaved(showing: next, before: third)),
            .scheduleTick(at: at(37)), .prepareFrame(third, size: screen),
        ])
    }

    @Test func neverRepeatsAPhotoAndShowsEachOncePerRound() {
        let names = ["a", "b", "c", "d"]
        var (store, first, next) = showingFirstPhoto(names, seed: 42)
        var shown = [first.description]
        var preparing = next
        for tick in 1...200 {
            store.send(.framePrepared(preparing, frame(), now: at(tick * 15 - 5)))
            store.receive([])
            let effects = store.send(.intervalElapsed(now: at(tick * 15)))
            preparing = effects.preparedPhoto!
            _ = store.takeEffects()
            shown.append(store.shownID!)
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
        for round in stride(from: 0, to: shown.count - names.count, by: names.count) {
            #expect(Set(shown[round..<round + names.count]) == Set(names), "round at \(round)")
        }
    }

    @Test func theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
        func order(seed: UInt64) -> [String] {
            var (store, first, next) = showingFirstPhoto(["a", "b", "c", "d", "e", "f"], seed: seed)
            var shown = [first.description]
            var preparing = next
            for tick in 1..<12 {
                store.send(.framePrepared(preparing, frame(), now: at(tick * 15 - 1)))
                preparing = store.send(.intervalElapsed(now: at(tick * 15))).preparedPhoto!
                _ = store.takeEffects()
                shown.append(store.shownID!)
            }
            return shown
        }
        #expect(order(seed: 7) == order(seed: 7))
        #expect(order(seed: 7) != order(seed: 8))
    }

    @Test func onePhotoStaysAndIsNeitherDecodedAgainNorSavedAgain() {
        var store = AlbumTestStore()
        store.send(.started(frameSize: screen, savedRound: nil))
        store.send(.photoListChanged(.loaded(photos("only"))))
        store.receive([.prepareFrame(Photo(id: "only"), size: screen)])
        store.send(.framePrepared(Photo(id: "only"), frame(), now: at(0)))
        store.receive([
            .report(.photoShown(Photo(id: "only"))), .saveRound(store.album.shuffleSnapshotForTests),
            .scheduleTick(at: at(15)),
        ])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([.report(.intervalElapsed), .scheduleTick(at: at(30))])
        #expect(store.shownID == "only")
    }

    @Test func loadingEmptyFailedAndUnreadableAreDistinctStatesEachSaidOnce() {
        var store = AlbumTestStore()
        store.send(.started(frameSize: screen, savedRound: nil))
        store.send(.photoListChanged(.loading))
        store.receive([])
        #expect(store.state.content == .loading)
        store.send(.photoListChanged(.loaded([])))
        store.receive([.report(.albumEmpty)])
        #expect(store.state.content == .noPhotos(.emptyAlbum))
        store.send(.photoListChanged(.loaded([])))
        store.receive([])
        store.send(.photoListChanged(.failed(reason: "the photo folder /x does not exist")))
        store.receive([.report(.photoListFailed(reason: "the photo folder /x does not exist"))])
        #expect(store.state.content == .failed(reason: "the photo folder /x does not exist"))
        store.send(.photoListChanged(.loaded(photos("x", "y"))))
        let first = store.takeEffects().preparedPhoto!
        let second = store.send(.framePreparationFailed(first, reason: "broken", now: at(1))).preparedPhoto!
        store.receive([.report(.photoRetryLater(first, reason: "broken")), .prepareFrame(second, size: screen)])
        let retried = store.send(.framePreparationFailed(second, reason: "broken", now: at(2))).preparedPhoto!
        store.receive([.report(.photoRetryLater(second, reason: "broken")), .prepareFrame(retried, size: screen)])
        let last = store.send(.framePreparationFailed(retried, reason: "still broken", now: at(3))).preparedPhoto!
        store.receive([.report(.photoSkipped(retried, reason: "still broken")), .prepareFrame(last, size: screen)])
        store.send(.framePreparationFailed(last, reason: "still broken", now: at(4)))
        store.receive([.report(.photoSkipped(last, reason: "still broken")), .report(.noReadablePhotos(skipped: 2))])
        #expect(store.state.content == .noPhotos(.noneReadable(skipped: 2)))
        #expect(FrameViewModel(state: store.state).content == .black(reason: "none of the 2 photos could be read"))
    }

    @Test func aPhotoThatCanNeverBeShownIsSkippedAtOnceNotRetried() {
        // A HEIC file or a 12-bit JPEG: "will retry later" would be untrue.
        var store = AlbumTestStore(seed: 1)
        store.send(.started(frameSize: screen, savedRound: nil))
        store.receive([])
        let first = store.send(.photoListChanged(.loaded([Photo(id: "x.heic")]))).preparedPhoto!
        _ = store.takeEffects()
        store.send(.framePreparationRefused(first, reason: "HEIC photo", now: at(1)))
        store.receive([.report(.photoSkipped(first, reason: "HEIC photo")), .report(.noReadablePhotos(skipped: 1))])
        #expect(store.state.content == .noPhotos(.noneReadable(skipped: 1)))
    }

    @Test func aBrokenNextPhotoIsReplacedAtOnceNotAtTheTick() {
        var (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        let replacement = store.send(.framePreparationFailed(next, reason: "truncated", now: at(2))).preparedPhoto!
        store.receive([.report(.photoRetryLater(next, reason: "truncated")), .prepareFrame(replacement, size: screen)])
        #expect(replacement != first && replacement != next)
        store.send(.framePrepared(replacement, frame(), now: at(3)))
        store.receive([])
        let effects = store.send(.intervalElapsed(now: at(15)))
        #expect(effects.contains(.report(.photoShown(replacement))), "the tick shows what was prepared before it")
        #expect(!effects.contains(.prepareFrame(replacement, size: screen)))
        _ = store.takeEffects()
    }

    @Test func aPhotoThatFailedOnceIsRetriedAtTheNextTickThenSkippedUntilListedAnew() {
        var (store, first, next) = showingFirstPhoto(["good", "bad"])
        #expect(first.description == "good" || next.description == "good")
        let bad = Photo(id: "bad")
        let good = Photo(id: "good")
        var time = 0
        // Run ticks until "bad" has failed twice.
        var preparing: Photo? = next
        while !store.album.isSkippedForTests(bad), time < 300 {
            time += 15
            if let photo = preparing {
                let effects =
                    photo == bad
                    ? store.send(.framePreparationFailed(bad, reason: "Failed()", now: at(time - 10)))
                    : store.send(.framePrepared(photo, frame(), now: at(time - 10)))
                preparing = effects.preparedPhoto
                _ = store.takeEffects()
            }
            let effects = store.send(.intervalElapsed(now: at(time)))
            preparing = effects.preparedPhoto ?? preparing
            _ = store.takeEffects()
        }
        #expect(store.album.isSkippedForTests(bad))
        #expect(store.shownID == "good")
        // The file is replaced: the repository lists it as gone, then back. It gets a new chance.
        store.send(.photoListChanged(.loaded([good])))
        _ = store.takeEffects()
        let effects = store.send(.photoListChanged(.loaded([good, bad])))
        _ = store.takeEffects()
        #expect(!store.album.isSkippedForTests(bad))
        #expect(effects.preparedPhoto == bad || store.album.shuffleSnapshotForTests.remaining.contains(bad.id))
    }

    @Test func afterAFewLinesFailuresAreSummarisedAtTheTick() {
        let names = ["good"] + (0..<40).map { "bad\($0)" }
        var (store, first, next) = showingFirstPhoto(names, seed: 3)
        var preparing: Photo? = next
        var failures = 0
        var lines = 0
        while let photo = preparing, photo.description.hasPrefix("bad") {
            let effects = store.send(.framePreparationFailed(photo, reason: "broken", now: at(1)))
            failures += 1
            lines += effects.filter { if case .report(.photoRetryLater) = $0 { true } else { false } }.count
            preparing = effects.preparedPhoto
            _ = store.takeEffects()
        }
        #expect(first.description.hasPrefix("bad"), "seed 3 starts with a broken photo's frame being ready")
        #expect(failures > 5, "the seed leads through more than five broken photos: \(failures)")
        #expect(lines == min(failures, 5), "one line each for the first five only")
        let tick = store.send(.intervalElapsed(now: at(15)))
        #expect(tick.contains(.report(.failuresSummarized(retried: failures - 5, skipped: 0))))
        _ = store.takeEffects()
    }

    @Test func newPhotosJoinTheRotationAndRemovedOnesLeaveIt() {
        var (store, _, next) = showingFirstPhoto(["a", "b"])
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        let joined = store.send(.photoListChanged(.loaded(photos("c", "d")))).preparedPhoto
        store.receive([.prepareFrame(joined!, size: screen)])
        #expect(["c", "d"].contains(joined!.description), "the prepared frame of a removed photo is dropped")
        store.send(.framePrepared(next, frame(), now: at(2)))
        store.receive([])
        var shown: [String] = []
        var preparing = joined!
        for tick in 1...6 {
            store.send(.framePrepared(preparing, frame(), now: at(tick * 15 - 1)))
            preparing = store.send(.intervalElapsed(now: at(tick * 15))).preparedPhoto!
            _ = store.takeEffects()
            shown.append(store.shownID!)
        }
        #expect(Set(shown) == ["c", "d"], "removed photos are never chosen again: \(shown)")
    }

    @Test func aFramePreparedForAPhotoThatLeftTheListIsDropped() {
        var (store, _, next) = showingFirstPhoto(["a", "b", "c"])
        let remaining = photos("a", "b", "c").filter { $0 != next }
        store.send(.photoListChanged(.loaded(remaining)))
        store.receive([])
        let replacement = store.send(.framePrepared(next, frame(), now: at(2))).preparedPhoto
        store.receive([.prepareFrame(replacement!, size: screen)])
        #expect(replacement != next)
    }

    @Test func displayPowerIsStateAndKeepsThePlace() {
        var (store, first, _) = showingFirstPhoto(["a", "b"])
        store.send(.displayPowerRequested(.off))
        store.receive([])
        #expect(store.state.displayPower == .off)
        #expect(store.shownID == first.description)
        #expect(FrameViewModel(state: store.state).displayPower == .off)
        store.send(.displayPowerRequested(.on))
        store.receive([])
        #expect(store.state.displayPower == .on)
    }

    @Test func aNewScreenSizeRedoesThePhotoOnScreenThenTheNext() {
        var (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        store.send(.frameSizeChanged(otherScreen))
        store.receive([])
        #expect(store.album.frameSize == otherScreen)
        // The frame in flight was made for the old screen: the photo on screen is redone
        // first, then that one again.
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([.prepareFrame(first, size: otherScreen)])
        let redone = frame(otherScreen)
        store.send(.framePrepared(first, redone, now: at(2)))
        store.receive([.prepareFrame(next, size: otherScreen)])
        #expect(
            store.state.content == .showing(ShownPhoto(photo: first, frame: redone)), "no photoShown: the same photo")
        store.send(.framePrepared(next, frame(otherScreen), now: at(3)))
        store.receive([])
        #expect(store.album.nextTick == at(15), "the schedule is unchanged")
    }

    @Test(arguments: [
        (
            AlbumAction.exitButtonHeld(ExitRequest(device: "gpio-keys", key: "KEY_POWER")),
            AlbumEnd.exitButton(ExitRequest(device: "gpio-keys", key: "KEY_POWER"))
        ),
        (.stopSignalReceived(15), .signal(15)),
    ])
    func endingCancelsTheTickEndsTheAlbumAndIgnoresEverythingAfter(action: AlbumAction, end: AlbumEnd) {
        var (store, first, next) = showingFirstPhoto(["a", "b"])
        store.send(action)
        store.receive([.cancelTick, .report(.ended(end)), .end])
        #expect(store.state.end == end)
        #expect(store.shownID == first.description)
        #expect(FrameViewModel(state: store.state).content == .ended)
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([])
        store.send(.exitButtonHeld(ExitRequest(device: "x", key: "y")))
        store.receive([])
    }

    @Test func theAlbumEndsAfterThePresentationLimitWithTheLastPhotoOnScreen() {
        var store = AlbumTestStore(reducer: PublishPhoto(interval: .seconds(15), presentationLimit: 2))
        store.send(.started(frameSize: screen, savedRound: nil))
        let first = store.send(.photoListChanged(.loaded(photos("a", "b")))).preparedPhoto!
        _ = store.takeEffects()
        let second = store.send(.framePrepared(first, frame(), now: at(0))).preparedPhoto!
        _ = store.takeEffects()
        store.send(.framePrepared(second, frame(), now: at(1)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([
            .report(.intervalElapsed), .report(.photoShown(second)), .saveRound(store.album.shuffleSnapshotForTests),
            .report(.ended(.countReached(2))), .end,
        ])
        #expect(store.state.end == .countReached(2))
        #expect(FrameViewModel(state: store.state).content == .photo(second, frame: store.album.shown!.frame))
    }

    @Test func withFadesOnANewPhotoFadesInOverTheOneBeforeButNeverFromBlackOrItself() {
        let fade = PhotoTransition.fade(.seconds(1))
        var store = AlbumTestStore(reducer: PublishPhoto(interval: .seconds(15), transition: fade))
        store.send(.started(frameSize: screen, savedRound: nil))
        let first = store.send(.photoListChanged(.loaded(photos("a", "b")))).preparedPhoto!
        _ = store.takeEffects()
        let next = store.send(.framePrepared(first, frame(), now: at(0))).preparedPhoto!
        _ = store.takeEffects()
        #expect(store.state.fade == nil, "the first photo comes up at once")
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        let inFlight = store.send(.intervalElapsed(now: at(15))).preparedPhoto!
        _ = store.takeEffects()
        #expect(store.state.fade == Fade(from: first, duration: .seconds(1)), "it names the photo, holds no frame")
        let viewModel = FrameViewModel(state: store.state)
        #expect(viewModel.transition == .fade(from: first, duration: .seconds(1)))
        #expect(
            viewModel.content == .photo(next, frame: store.album.shown!.frame), "the view model ends on the new photo")

        store.send(.photoListChanged(.loaded([])))
        store.receive([])
        #expect(store.shownID == next.description, "the photo on screen stays until its tick")
        store.send(.intervalElapsed(now: at(30)))
        store.receive([.report(.intervalElapsed)])
        store.send(.framePrepared(inFlight, frame(), now: at(31)))
        store.receive([.report(.albumEmpty)])
        #expect(store.state.content == .noPhotos(.emptyAlbum))
        #expect(store.state.fade == nil)
        let again = store.send(.photoListChanged(.loaded(photos("a")))).preparedPhoto!
        _ = store.takeEffects()
        _ = store.send(.framePrepared(again, frame(), now: at(40)))
        _ = store.takeEffects()
        #expect(store.state.fade == nil, "no fade from black")
        _ = store.send(.intervalElapsed(now: at(55)))
        _ = store.takeEffects()
        #expect(store.state.fade == nil, "one photo: nothing to fade")
    }

    @Test func withCutsThereIsNeverAFade() {
        var (store, _, next) = showingFirstPhoto(["a", "b"])
        store.send(.framePrepared(next, frame(), now: at(1)))
        _ = store.send(.intervalElapsed(now: at(15)))
        _ = store.takeEffects()
        #expect(store.state.fade == nil)
        #expect(FrameViewModel(state: store.state).transition == nil)
    }

    @Test func aSavedRoundContinuesAfterARestart() {
        let names = (0..<8).map { "p\($0)" }
        var (store, first, next) = showingFirstPhoto(names, seed: 3)
        var shownBefore = [first]
        store.send(.framePrepared(next, frame(), now: at(1)))
        _ = store.send(.intervalElapsed(now: at(15)))
        let saved = store.takeEffects().compactMap { effect -> ShuffleSnapshot? in
            if case .saveRound(let snapshot) = effect { return snapshot }
            return nil
        }.first!
        shownBefore.append(next)
        #expect(saved.shown == shownBefore.map(\.id))
        #expect(saved.last == next.id)

        var restarted = AlbumTestStore(seed: 99)
        restarted.send(.started(frameSize: screen, savedRound: saved))
        restarted.receive([])
        var preparing = restarted.send(.photoListChanged(.loaded(names.map { Photo(id: PhotoID($0)) }))).preparedPhoto
        _ = restarted.takeEffects()
        var shownAfter: [Photo] = []
        for step in 0..<6 {
            guard let photo = preparing else { break }
            preparing = restarted.showPrepared(photo, now: at(step * 15))
            shownAfter.append(restarted.album.shown!.photo)
        }
        #expect(
            Set(shownAfter) == Set(names.map { Photo(id: PhotoID($0)) }).subtracting(shownBefore),
            "no repeats: \(shownAfter)")
    }
}

extension Album {
    /// The round as the shuffle has it now (what a `saveRound` effect carries).
    var shuffleSnapshotForTests: ShuffleSnapshot { roundSnapshot }

    /// Whether `photo` failed twice and is left out.
    func isSkippedForTests(_ photo: Photo) -> Bool { isSkipped(photo) }
}
