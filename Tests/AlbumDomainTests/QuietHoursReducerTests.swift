import AlbumDomain
import Testing

/// Quiet hours in the reducer: no decoding and no ticks while quiet, the round keeps its place,
/// a fresh photo at once on waking.
@Suite struct QuietHoursReducerTests {
    /// A store with a fading reducer showing its first photo at t=0, the next one asked for.
    func showingFirstPhoto() -> (AlbumTestStore, Photo, Photo) {
        let store = AlbumTestStore(reducer: PublishPhoto(interval: .seconds(15), transition: .fade(.seconds(1))))
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        let first = store.send(.photoListChanged(.loaded(photos("a", "b", "c", "d")))).preparedPhoto!
        store.receive([.prepareFrame(first, size: screen)])
        let next = store.framePreparedAndShown(first, now: at(0), nextTick: at(15))
        return (store, first, next)
    }

    @Test func quietHoursStopTicksAndDecodingAndWakingShowsTheNextPhotoAtOnce() {
        let (store, _, next) = showingFirstPhoto()
        store.send(.quietHoursBegan(.powerOff)) {
            $0.quiet = .powerOff
            $0.displayPower = .off
        }
        store.receive([.report(.quietHoursBegan(.powerOff)), .cancelTick])
        #expect(store.album.nextTick == nil)
        let round = store.album.roundSnapshot
        // The frame in flight when quiet hours began is kept, not shown; nothing more is decoded,
        // and nothing changes the state.
        let nextFrame = frame()
        store.send(.framePrepared(next, nextFrame, now: at(3)))
        store.receive([])
        store.send(.intervalElapsed(now: at(15)))
        store.receive([])
        store.send(.photoListChanged(.loaded(photos("a", "b", "c", "d", "e"))))
        store.receive([])
        store.send(.frameSizeChanged(screen))
        store.receive([])
        #expect(store.album.roundSnapshot.shown == round.shown, "the round keeps its place")
        // No fade on waking.
        store.send(.quietHoursEnded(now: at(36_000))) {
            $0.content = showing(next, nextFrame)
            $0.quiet = nil
            $0.displayPower = .on
        }
        let third = store.unassertedEffects.preparedPhoto!
        store.receive(
            [
                .report(.quietHoursEnded), .report(.photoShown(next)), .scheduleTick(at: at(36_015)),
                .prepareFrame(third, size: screen),
            ], savingTheRoundShowing: next, before: third)
    }

    @Test func startingInsideQuietHoursDecodesNothingUntilTheyEnd() {
        let store = AlbumTestStore()
        store.send(.quietHoursBegan(.powerOff)) {
            $0.quiet = .powerOff
            $0.displayPower = .off
        }
        store.receive([.report(.quietHoursBegan(.powerOff))])
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        store.send(.photoListChanged(.loaded(photos("a", "b"))))
        store.receive([])
        #expect(FrameViewModel(state: store.state).displayPower == .off)
        let first = store.send(.quietHoursEnded(now: at(500))) {
            $0.quiet = nil
            $0.displayPower = .on
        }.preparedPhoto!
        store.receive([.report(.quietHoursEnded), .prepareFrame(first, size: screen)])
        store.framePreparedAndShown(first, now: at(501), nextTick: at(516))
    }

    @Test func wakingWithoutAReadyFrameShowsTheNextAsSoonAsItIsReady() {
        let (store, _, next) = showingFirstPhoto()
        store.send(.quietHoursBegan(.black)) { $0.quiet = .black }
        store.receive([.report(.quietHoursBegan(.black)), .cancelTick])
        // The frame in flight failed while quiet: nothing else is asked for until waking.
        store.send(.framePreparationFailed(next, reason: "broken", now: at(2)))
        store.receive([.report(.photoRetryLater(next, reason: "broken"))])
        // The photo on screen stays until the next is ready.
        let third = store.send(.quietHoursEnded(now: at(100))) { $0.quiet = nil }.preparedPhoto!
        store.receive([.report(.quietHoursEnded), .prepareFrame(third, size: screen)])
        let thirdFrame = frame()
        let before = store.album.shown!.photo
        let fourth = store.send(.framePrepared(third, thirdFrame, now: at(101))) {
            $0.content = showing(third, thirdFrame)
            $0.fade = Fade(from: before, duration: .seconds(1))
        }.preparedPhoto!
        store.receive(
            [.report(.photoShown(third)), .scheduleTick(at: at(116)), .prepareFrame(fourth, size: screen)],
            savingTheRoundShowing: third, before: fourth)
    }

    @Test(arguments: [
        (QuietDisplay.powerOff, DisplayPower.off, false, nil as Int?),
        (.black, .on, true, nil),
        (.dimmed(percent: 30), .on, false, 30),
    ])
    func eachQuietModeHasItsViewModel(display: QuietDisplay, power: DisplayPower, black: Bool, backlight: Int?) {
        let (store, first, _) = showingFirstPhoto()
        #expect(FrameViewModel(state: store.state).backlightPercent == nil)
        store.send(.quietHoursBegan(display)) {
            $0.quiet = display
            $0.displayPower = power
        }
        store.receive([.report(.quietHoursBegan(display)), .cancelTick])
        let viewModel = FrameViewModel(state: store.state)
        #expect(viewModel.displayPower == power)
        #expect(viewModel.backlightPercent == backlight)
        #expect(viewModel.transition == nil)
        if black {
            #expect(viewModel.content == .black(reason: "quiet hours"))
        } else {
            #expect(viewModel.content == .photo(first, frame: store.album.shown!.frame))
        }
    }

    @Test func repeatedAndUnmatchedActionsChangeNothing() {
        let (store, _, _) = showingFirstPhoto()
        store.send(.quietHoursEnded(now: at(5)))
        store.receive([])
        #expect(store.album.nextTick == at(15), "waking when not quiet leaves the tick alone")
        store.send(.quietHoursBegan(.powerOff)) {
            $0.quiet = .powerOff
            $0.displayPower = .off
        }
        store.receive([.report(.quietHoursBegan(.powerOff)), .cancelTick])
        store.send(.quietHoursBegan(.powerOff))
        store.receive([])
        // Another mode takes over silently.
        store.send(.quietHoursBegan(.black)) {
            $0.quiet = .black
            $0.displayPower = .on
        }
        store.receive([])
    }

    @Test func theExitButtonEndsQuietHoursWithTheConsoleLit() {
        let (store, _, _) = showingFirstPhoto()
        store.send(.quietHoursBegan(.powerOff)) {
            $0.quiet = .powerOff
            $0.displayPower = .off
        }
        store.receive([.report(.quietHoursBegan(.powerOff)), .cancelTick])
        let request = ExitRequest(device: "gpio-keys", key: "KEY_POWER")
        // The state keeps quiet hours: the view model lights the console for the end.
        store.send(.exitButtonHeld(request)) { $0.end = .exitButton(request) }
        store.receive([.report(.ended(.exitButton(request))), .end])
        let viewModel = FrameViewModel(state: store.state)
        #expect(viewModel.content == .ended && viewModel.displayPower == .on)
    }
}
