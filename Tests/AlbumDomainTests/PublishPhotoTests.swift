import AlbumDomain
import Testing

/// The reducer, step by step: every action's new state and its exact effects.
@Suite struct PublishPhotoTests {
    /// A store showing its first photo, at t=0, with the next one asked for.
    /// Returns the store, the photo on screen and the photo being prepared.
    func showingFirstPhoto(_ names: [String], seed: UInt64 = 1) -> (AlbumTestStore, Photo, Photo) {
        let store = AlbumTestStore(seed: seed)
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        let first = store.send(.photoListChanged(.loaded(names.map { Photo(id: PhotoID($0)) }))).preparedPhoto!
        store.receive([.prepareFrame(first, size: screen)])
        let next = store.framePreparedAndShown(first, now: at(0), nextTick: at(15))
        return (store, first, next)
    }

    @Test func startingLoadsThenAsksForTheFirstFrameAndShowsItWhenReady() {
        let store = AlbumTestStore()
        #expect(store.state == .initial)
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        // Nothing shows before its frame is ready: the state does not change.
        let first = store.send(.photoListChanged(.loaded(photos("a", "b", "c")))).preparedPhoto
        store.receive([.prepareFrame(first!, size: screen)])
        let shownFrame = frame()
        let next = store.send(.framePrepared(first!, shownFrame, now: at(0))) {
            $0.content = showing(first!, shownFrame)
        }.preparedPhoto
        #expect(next != nil && next != first)
        store.receive(
            [.report(.photoShown(first!)), .scheduleTick(at: at(15)), .prepareFrame(next!, size: screen)],
            savingTheRoundShowing: first!, before: next!)
    }

    @Test func aTickSwapsInTheFramePreparedBeforeItAndSchedulesTheNextOneIntervalLater() {
        let (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        let nextFrame = frame()
        // A prepared frame waits for its tick, and a tick that fires before its deadline is not
        // the tick due: neither changes the state.
        store.send(.framePrepared(next, nextFrame, now: at(3)))
        store.receive([])
        store.send(.intervalElapsed(now: at(14)))
        store.receive([])
        let third = store.send(.intervalElapsed(now: at(15))) { $0.content = showing(next, nextFrame) }.preparedPhoto!
        store.receive(
            [
                .report(.intervalElapsed), .report(.photoShown(next)), .scheduleTick(at: at(30)),
                .prepareFrame(third, size: screen),
            ], savingTheRoundShowing: next, before: third)
        #expect(Set([first, next, third]) == Set(photos("a", "b", "c")), "one round shows every photo once")
    }

    @Test func aScheduleThatFellBehindShowsOnePhotoThenWaitsAWholeInterval() {
        let (store, _, next) = showingFirstPhoto(["a", "b", "c"])
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(1)))
        store.receive([])
        // The process was stopped for 100 s: the tick due at 15 fires at 115.
        let effects = store.send(.intervalElapsed(now: at(115))) { $0.content = showing(next, nextFrame) }
        #expect(effects.contains(.scheduleTick(at: at(130))))
        #expect(effects.filter { if case .report(.photoShown) = $0 { true } else { false } }.count == 1)
        let third = effects.preparedPhoto!
        store.receive(
            [
                .report(.intervalElapsed), .report(.photoShown(next)), .scheduleTick(at: at(130)),
                .prepareFrame(third, size: screen),
            ], savingTheRoundShowing: next, before: third)
        store.send(.intervalElapsed(now: at(116)))
        store.receive([])
    }

    @Test func aFrameThatIsLateForItsTickShowsWhenReadyAndTheIntervalCountsFromThere() {
        let (store, _, next) = showingFirstPhoto(["a", "b", "c"])
        // The photo stays until the next one is ready.
        store.send(.intervalElapsed(now: at(15)))
        store.receive([.report(.intervalElapsed)])
        store.framePreparedAndShown(next, now: at(22), nextTick: at(37))
    }

    @Test func neverRepeatsAPhotoAndShowsEachOncePerRound() {
        let names = ["a", "b", "c", "d"]
        let (store, first, next) = showingFirstPhoto(names, seed: 42)
        var shown = [first.description]
        var preparing = next
        for tick in 1...200 {
            preparing = store.showAtTick(preparing, preparedAt: at(tick * 15 - 5), tick: at(tick * 15))!
            shown.append(store.shownID!)
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
        for round in stride(from: 0, to: shown.count - names.count, by: names.count) {
            #expect(Set(shown[round..<round + names.count]) == Set(names), "round at \(round)")
        }
    }

    @Test func theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
        func order(seed: UInt64) -> [String] {
            let (store, first, next) = showingFirstPhoto(["a", "b", "c", "d", "e", "f"], seed: seed)
            var shown = [first.description]
            var preparing = next
            for tick in 1..<12 {
                preparing = store.showAtTick(preparing, preparedAt: at(tick * 15 - 1), tick: at(tick * 15))!
                shown.append(store.shownID!)
            }
            return shown
        }
        #expect(order(seed: 7) == order(seed: 7))
        #expect(order(seed: 7) != order(seed: 8))
    }

    @Test func onePhotoStaysAndIsNeitherDecodedAgainNorSavedAgain() {
        let store = AlbumTestStore()
        let only = Photo(id: "only")
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.send(.photoListChanged(.loaded(photos("only"))))
        store.receive([.prepareFrame(only, size: screen)])
        let onlyFrame = frame()
        store.send(.framePrepared(only, onlyFrame, now: at(0))) { $0.content = showing(only, onlyFrame) }
        store.receive([
            .report(.photoShown(Photo(id: "only"))), .saveRound(store.album.shuffleSnapshotForTests),
            .scheduleTick(at: at(15)),
        ])
        // The photo stays: the state does not change.
        store.send(.intervalElapsed(now: at(15)))
        store.receive([.report(.intervalElapsed), .scheduleTick(at: at(30))])
    }

    @Test func loadingEmptyFailedAndUnreadableAreDistinctStatesEachSaidOnce() {
        let store = AlbumTestStore()
        let missing = "the photo folder /x does not exist"
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.send(.photoListChanged(.loading))
        store.receive([])
        store.send(.photoListChanged(.loaded([]))) { $0.content = .noPhotos(.emptyAlbum) }
        store.receive([.report(.albumEmpty)])
        store.send(.photoListChanged(.loaded([])))
        store.receive([])
        store.send(.photoListChanged(.failed(reason: missing))) { $0.content = .failed(reason: missing) }
        store.receive([.report(.photoListFailed(reason: missing))])
        store.send(.photoListChanged(.loaded(photos("x", "y"))))  // the reason stays until a photo shows
        let first = store.takeEffects().preparedPhoto!
        let second = store.send(.framePreparationFailed(first, reason: "broken", now: at(1))).preparedPhoto!
        store.receive([.report(.photoRetryLater(first, reason: "broken")), .prepareFrame(second, size: screen)])
        let retried = store.send(.framePreparationFailed(second, reason: "broken", now: at(2))).preparedPhoto!
        store.receive([.report(.photoRetryLater(second, reason: "broken")), .prepareFrame(retried, size: screen)])
        let last = store.send(.framePreparationFailed(retried, reason: "still broken", now: at(3))).preparedPhoto!
        store.receive([.report(.photoSkipped(retried, reason: "still broken")), .prepareFrame(last, size: screen)])
        store.send(.framePreparationFailed(last, reason: "still broken", now: at(4))) {
            $0.content = .noPhotos(.noneReadable(skipped: 2))
        }
        store.receive([.report(.photoSkipped(last, reason: "still broken")), .report(.noReadablePhotos(skipped: 2))])
        #expect(FrameViewModel(state: store.state).content == .black(reason: "none of the 2 photos could be read"))
    }

    @Test func aPhotoThatCanNeverBeShownIsSkippedAtOnceNotRetried() {
        // A HEIC file or a 12-bit JPEG: "will retry later" would be untrue.
        let store = AlbumTestStore(seed: 1)
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        let first = Photo(id: "x.heic")
        store.send(.photoListChanged(.loaded([first])))
        store.receive([.prepareFrame(first, size: screen)])
        store.send(.framePreparationRefused(first, reason: "HEIC photo", now: at(1))) {
            $0.content = .noPhotos(.noneReadable(skipped: 1))
        }
        store.receive([.report(.photoSkipped(first, reason: "HEIC photo")), .report(.noReadablePhotos(skipped: 1))])
    }

    /// The next photo's decode may take its interval and 2 s, less 1 s kept for the photo after it.
    @Test func theDecodeDeadlineLeavesTheNextPhotoWithinTwoSecondsOfTheInterval() {
        #expect(PublishPhoto(interval: .seconds(1)).decodeDeadline == .seconds(2))
        #expect(PublishPhoto(interval: .milliseconds(50)).decodeDeadline == .milliseconds(1050))
        #expect(PublishPhoto(interval: .seconds(10)).decodeDeadline == .seconds(11))
        #expect(PublishPhoto.reserveForTheNext < PublishPhoto.patience)
    }

    /// A next photo stopped at its deadline (a failure worth a second try: the board may have been
    /// busy) is passed over, and another is asked for at once.
    @Test func aNextPhotoOverItsDeadlineIsPassedOverForAnother() {
        let (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        let reason = "the decode worker took longer than 11.0 seconds and was stopped"
        let replacement = store.send(.framePreparationFailed(next, reason: reason, now: at(11))).preparedPhoto!
        store.receive([.report(.photoRetryLater(next, reason: reason)), .prepareFrame(replacement, size: screen)])
        #expect(replacement != first && replacement != next)
    }

    @Test func aBrokenNextPhotoIsReplacedAtOnceNotAtTheTick() {
        let (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        let replacement = store.send(.framePreparationFailed(next, reason: "truncated", now: at(2))).preparedPhoto!
        store.receive([.report(.photoRetryLater(next, reason: "truncated")), .prepareFrame(replacement, size: screen)])
        #expect(replacement != first && replacement != next)
        let replacementFrame = frame()
        store.send(.framePrepared(replacement, replacementFrame, now: at(3)))
        store.receive([])
        let effects = store.send(.intervalElapsed(now: at(15))) { $0.content = showing(replacement, replacementFrame) }
        #expect(effects.contains(.report(.photoShown(replacement))), "the tick shows what was prepared before it")
        #expect(!effects.contains(.prepareFrame(replacement, size: screen)))
        // The photo that failed is back in the round for its second try: the only photo left in it.
        store.receive(
            [
                .report(.intervalElapsed), .report(.photoShown(replacement)), .scheduleTick(at: at(30)),
                .prepareFrame(next, size: screen),
            ], savingTheRoundShowing: replacement, before: next)
    }

    @Test func aPhotoThatFailedOnceIsRetriedAtTheNextTickThenSkippedUntilListedAnew() {
        let (store, first, next) = showingFirstPhoto(["good", "bad"])
        #expect(first.description == "good" || next.description == "good")
        let bad = Photo(id: "bad")
        let good = Photo(id: "good")
        var time = 0
        var failures = 0
        // The round saved when the first photo showed: the other one still to show.
        var saved = ShuffleSnapshot(remaining: [next.id], shown: [first.id], last: first.id)
        // Run ticks until "bad" has failed twice.
        var preparing: Photo? = next
        while !store.album.isSkippedForTests(bad), time < 300 {
            time += 15
            var ready: ShownPhoto?
            if let photo = preparing {
                if photo == bad {
                    failures += 1
                    store.send(.framePreparationFailed(bad, reason: "Failed()", now: at(time - 10)))
                    store.receive(failed(bad, reason: "Failed()", failures: failures))
                } else {
                    ready = ShownPhoto(photo: photo, frame: frame())
                    store.send(.framePrepared(photo, ready!.frame, now: at(time - 10)))
                    store.receive([])  // it waits for its tick
                }
            }
            store.send(.intervalElapsed(now: at(time))) { if let ready { $0.content = .showing(ready) } }
            let round = roundOfGoodAndBad(good, bad, failures: failures)
            store.receive(
                tick(
                    now: at(time), showing: ready?.photo, saving: round == saved ? nil : round,
                    asking: failures < 2 ? bad : nil))
            saved = round
            preparing = failures < 2 ? bad : nil
        }
        #expect(store.album.isSkippedForTests(bad))
        #expect(store.shownID == "good")
        // The file is replaced: the repository lists it as gone, then back. It gets a new chance.
        store.send(.photoListChanged(.loaded([good])))
        store.receive([])
        // Nothing is asked for yet: the next photo was drawn when "good" was the only one (the
        // photo on screen again), and "bad" joins what is left of the round, after it.
        store.send(.photoListChanged(.loaded([good, bad])))
        store.receive([])
        #expect(!store.album.isSkippedForTests(bad))
        #expect(store.album.shuffleSnapshotForTests.remaining.contains(bad.id))
    }

    /// What a failed frame of `bad` returns in an album of two while the other photo shows: its
    /// line (retried later the first time, skipped the second), and nothing asked for, since the
    /// only photo left is the one on screen.
    func failed(_ bad: Photo, reason: String, failures: Int) -> [AlbumEffect] {
        [.report(failures == 1 ? .photoRetryLater(bad, reason: reason) : .photoSkipped(bad, reason: reason))]
    }

    /// The round of the album of "good" and "bad" after a tick, by how often "bad" failed: none
    /// (the tick showed "good" after "bad": both shown, the round is over), once (it is back in
    /// the round for its second try) or twice (it is left out).
    func roundOfGoodAndBad(_ good: Photo, _ bad: Photo, failures: Int) -> ShuffleSnapshot {
        switch failures {
        case 0: ShuffleSnapshot(remaining: [], shown: [bad.id, good.id], last: good.id)
        case 1: ShuffleSnapshot(remaining: [bad.id], shown: [good.id], last: good.id)
        default: ShuffleSnapshot(remaining: [], shown: [good.id], last: good.id)
        }
    }

    /// What a tick at `now` returns when the next frame is ready or none is coming: the tick's
    /// line, the photo it shows (none when the photo on screen stays), the round when it changed
    /// since it was saved, the next tick one interval later and the next photo asked for, if any.
    func tick(now: AlbumTime, showing shown: Photo?, saving round: ShuffleSnapshot?, asking next: Photo?)
        -> [AlbumEffect]
    {
        var effects: [AlbumEffect] = [.report(.intervalElapsed)]
        if let shown { effects.append(.report(.photoShown(shown))) }
        if let round { effects.append(.saveRound(round)) }
        effects.append(.scheduleTick(at: now.advanced(by: .seconds(15))))
        if let next { effects.append(.prepareFrame(next, size: screen)) }
        return effects
    }

    @Test func afterAFewLinesFailuresAreSummarisedAtTheTick() {
        let names = ["good"] + (0..<40).map { "bad\($0)" }
        let (store, first, next) = showingFirstPhoto(names, seed: 3)
        var preparing: Photo? = next
        var failures = 0
        var lines = 0
        // Failures change no state: the first photo stays on screen.
        while let photo = preparing, photo.description.hasPrefix("bad") {
            let effects = store.send(.framePreparationFailed(photo, reason: "broken", now: at(1)))
            failures += 1
            lines += effects.filter { if case .report(.photoRetryLater) = $0 { true } else { false } }.count
            let replacement = effects.preparedPhoto!
            store.receive(passedOver(photo, reason: "broken", withALine: failures <= 5, for: replacement))
            preparing = replacement
        }
        #expect(first.description.hasPrefix("bad"), "seed 3 starts with a broken photo's frame being ready")
        #expect(failures > 5, "the seed leads through more than five broken photos: \(failures)")
        #expect(lines == min(failures, 5), "one line each for the first five only")
        let tick = store.send(.intervalElapsed(now: at(15)))  // nothing prepared: the photo stays
        #expect(tick.contains(.report(.failuresSummarized(retried: failures - 5, skipped: 0))))
        // The next frame is being prepared: the tick waits for it, and nothing more is asked for.
        store.receive([.report(.intervalElapsed), .report(.failuresSummarized(retried: failures - 5, skipped: 0))])
    }

    /// What a failed frame of `photo` returns while another photo shows: its line while lines are
    /// still written (the first five), and `replacement`'s frame asked for at once.
    func passedOver(_ photo: Photo, reason: String, withALine: Bool, for replacement: Photo) -> [AlbumEffect] {
        (withALine ? [.report(.photoRetryLater(photo, reason: reason))] : []) + [
            .prepareFrame(replacement, size: screen)
        ]
    }

    @Test func newPhotosJoinTheRotationAndRemovedOnesLeaveIt() {
        let (store, _, next) = showingFirstPhoto(["a", "b"])
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        // The photo on screen stays until its tick, even when it left the list.
        let joined = store.send(.photoListChanged(.loaded(photos("c", "d")))).preparedPhoto
        store.receive([.prepareFrame(joined!, size: screen)])
        #expect(["c", "d"].contains(joined!.description), "the prepared frame of a removed photo is dropped")
        store.send(.framePrepared(next, frame(), now: at(2)))
        store.receive([])
        var shown: [String] = []
        var preparing = joined!
        for tick in 1...6 {
            preparing = store.showAtTick(preparing, preparedAt: at(tick * 15 - 1), tick: at(tick * 15))!
            shown.append(store.shownID!)
        }
        #expect(Set(shown) == ["c", "d"], "removed photos are never chosen again: \(shown)")
    }

    @Test func aFramePreparedForAPhotoThatLeftTheListIsDropped() {
        let (store, _, next) = showingFirstPhoto(["a", "b", "c"])
        let remaining = photos("a", "b", "c").filter { $0 != next }
        store.send(.photoListChanged(.loaded(remaining)))
        store.receive([])
        let replacement = store.send(.framePrepared(next, frame(), now: at(2))).preparedPhoto
        store.receive([.prepareFrame(replacement!, size: screen)])
        #expect(replacement != next)
    }

    @Test func displayPowerIsStateAndKeepsThePlace() {
        let (store, _, _) = showingFirstPhoto(["a", "b"])
        store.send(.displayPowerRequested(.off)) { $0.displayPower = .off }
        store.receive([])
        #expect(FrameViewModel(state: store.state).displayPower == .off)
        store.send(.displayPowerRequested(.on)) { $0.displayPower = .on }
        store.receive([])
    }

    @Test func aNewScreenSizeRedoesThePhotoOnScreenThenTheNext() {
        let (store, first, next) = showingFirstPhoto(["a", "b", "c"])
        store.send(.frameSizeChanged(otherScreen))
        store.receive([])
        #expect(store.album.frameSize == otherScreen)
        // The frame in flight was made for the old screen: the photo on screen is redone
        // first, then that one again.
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([.prepareFrame(first, size: otherScreen)])
        let redone = frame(otherScreen)
        // No photoShown: the same photo, in its new frame.
        store.send(.framePrepared(first, redone, now: at(2))) { $0.content = showing(first, redone) }
        store.receive([.prepareFrame(next, size: otherScreen)])
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
        (.settingsChanged, .restartRequested),
        (.displayConnected, .displayConnected),
    ])
    func endingCancelsTheTickEndsTheAlbumAndIgnoresEverythingAfter(action: AlbumAction, end: AlbumEnd) {
        let (store, _, next) = showingFirstPhoto(["a", "b"])
        store.send(action) { $0.end = end }
        store.receive([.cancelTick, .report(.ended(end)), .end])
        #expect(FrameViewModel(state: store.state).content == .ended)
        store.send(.framePrepared(next, frame(), now: at(1)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([])
        store.send(.exitButtonHeld(ExitRequest(device: "x", key: "y")))
        store.receive([])
    }

    @Test("only the settings' change and a display's arrival start the command again in its process")
    func whichEndsStartAgain() {
        let request = ExitRequest(device: "gpio-keys", key: "KEY_POWER")
        let ends: [AlbumEnd] = [
            .countReached(3), .exitButton(request), .signal(15), .restartRequested, .displayConnected,
        ]
        #expect(ends.filter(\.startsAgain) == [.restartRequested, .displayConnected])
    }

    @Test func theAlbumEndsAfterThePresentationLimitWithTheLastPhotoOnScreen() {
        let store = AlbumTestStore(reducer: PublishPhoto(interval: .seconds(15), presentationLimit: 2))
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        let first = store.send(.photoListChanged(.loaded(photos("a", "b")))).preparedPhoto!
        store.receive([.prepareFrame(first, size: screen)])
        let firstFrame = frame()
        let second = store.send(.framePrepared(first, firstFrame, now: at(0))) {
            $0.content = showing(first, firstFrame)
        }.preparedPhoto!
        // One presentation of two: the next tick and the next photo are still needed.
        store.receive(
            [.report(.photoShown(first)), .scheduleTick(at: at(15)), .prepareFrame(second, size: screen)],
            savingTheRoundShowing: first, before: second)
        let secondFrame = frame()
        store.send(.framePrepared(second, secondFrame, now: at(1)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15))) {
            $0.content = showing(second, secondFrame)
            $0.end = .countReached(2)
        }
        store.receive([
            .report(.intervalElapsed), .report(.photoShown(second)), .saveRound(store.album.shuffleSnapshotForTests),
            .report(.ended(.countReached(2))), .end,
        ])
        #expect(FrameViewModel(state: store.state).content == .photo(second, frame: secondFrame))
    }

    @Test func withFadesOnANewPhotoFadesInOverTheOneBeforeButNeverFromBlackOrItself() {
        let fade = PhotoTransition.fade(.seconds(1))
        let store = AlbumTestStore(reducer: PublishPhoto(interval: .seconds(15), transition: fade))
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        let first = store.send(.photoListChanged(.loaded(photos("a", "b")))).preparedPhoto!
        store.receive([.prepareFrame(first, size: screen)])
        // The first photo comes up at once: no fade.
        let next = store.framePreparedAndShown(first, now: at(0), nextTick: at(15))
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(1)))
        store.receive([])
        let inFlight = store.send(.intervalElapsed(now: at(15))) {
            $0.content = showing(next, nextFrame)
            $0.fade = Fade(from: first, duration: .seconds(1))  // it names the photo, holds no frame
        }.preparedPhoto!
        // Both photos shown, the round is over; the next one never repeats the photo on screen.
        store.receive([
            .report(.intervalElapsed), .report(.photoShown(next)),
            .saveRound(ShuffleSnapshot(remaining: [], shown: [first.id, next.id], last: next.id)),
            .scheduleTick(at: at(30)), .prepareFrame(first, size: screen),
        ])
        let viewModel = FrameViewModel(state: store.state)
        #expect(viewModel.transition == .fade(from: first, duration: .seconds(1)))
        #expect(viewModel.content == .photo(next, frame: nextFrame), "the view model ends on the new photo")

        // The photo on screen stays until its tick.
        store.send(.photoListChanged(.loaded([])))
        store.receive([])
        store.send(.intervalElapsed(now: at(30)))
        store.receive([.report(.intervalElapsed)])
        store.send(.framePrepared(inFlight, frame(), now: at(31))) {
            $0.content = .noPhotos(.emptyAlbum)
            $0.fade = nil
        }
        store.receive([.report(.albumEmpty)])
        let again = Photo(id: "a")
        store.send(.photoListChanged(.loaded([again])))
        store.receive([.prepareFrame(again, size: screen)])
        let againFrame = frame()
        // No fade from black; an album of one: nothing more to prepare.
        store.send(.framePrepared(again, againFrame, now: at(40))) { $0.content = showing(again, againFrame) }
        store.receive([
            .report(.photoShown(again)), .saveRound(ShuffleSnapshot(remaining: [], shown: [again.id], last: again.id)),
            .scheduleTick(at: at(55)),
        ])
        // One photo: nothing to fade, the state does not change, the round is as saved.
        store.send(.intervalElapsed(now: at(55)))
        store.receive([.report(.intervalElapsed), .scheduleTick(at: at(70))])
    }

    @Test func withCutsThereIsNeverAFade() {
        let (store, first, next) = showingFirstPhoto(["a", "b"])
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(1)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15))) { $0.content = showing(next, nextFrame) }  // fade stays nil
        // Both photos shown, the round is over; the next one never repeats the photo on screen.
        store.receive([
            .report(.intervalElapsed), .report(.photoShown(next)),
            .saveRound(ShuffleSnapshot(remaining: [], shown: [first.id, next.id], last: next.id)),
            .scheduleTick(at: at(30)), .prepareFrame(first, size: screen),
        ])
        #expect(FrameViewModel(state: store.state).transition == nil)
    }

    @Test func aSavedRoundContinuesAfterARestart() {
        let names = (0..<8).map { "p\($0)" }
        let (store, first, next) = showingFirstPhoto(names, seed: 3)
        var shownBefore = [first]
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(1)))
        store.send(.intervalElapsed(now: at(15))) { $0.content = showing(next, nextFrame) }
        let saved = store.takeEffects().compactMap { effect -> ShuffleSnapshot? in
            if case .saveRound(let snapshot) = effect { return snapshot }
            return nil
        }.first!
        shownBefore.append(next)
        #expect(saved.shown == shownBefore.map(\.id))
        #expect(saved.last == next.id)

        let restarted = AlbumTestStore(seed: 99)
        restarted.send(.started(frameSize: screen, savedRound: saved)) { $0.content = .loading }
        restarted.receive([])
        var preparing = restarted.send(.photoListChanged(.loaded(names.map { Photo(id: PhotoID($0)) }))).preparedPhoto
        restarted.receive([.prepareFrame(preparing!, size: screen)])
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
