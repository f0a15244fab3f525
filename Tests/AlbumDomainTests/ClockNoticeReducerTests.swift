import AlbumDomain
import Testing

/// The "Clock not set" line in the reducer: it comes when the clock is found unset, and goes
/// after a minute or as soon as the clock is set, whichever is first; it never comes back.
@Suite struct ClockNoticeReducerTests {
    let notice = FrameNotice.clockNotSet(advice: "add Wi-Fi in babyalbum.txt")

    /// A started store with the line on screen since `at(2)`.
    func showingTheLine() -> AlbumTestStore {
        let store = AlbumTestStore()
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        store.send(.clockFoundUnset(now: at(2), advice: "add Wi-Fi in babyalbum.txt")) { $0.notice = notice }
        store.receive([.report(.noticeShown(notice)), .scheduleNoticeEnd(at: at(62))])
        return store
    }

    @Test func theLineAppearsWhenTheClockIsFoundUnset() {
        let store = showingTheLine()
        #expect(notice.text == "Clock not set: add Wi-Fi in babyalbum.txt")
        #expect(store.album.noticeEnds == at(62))
    }

    @Test func theLineGoesAfterAMinuteAndNotBefore() {
        let store = showingTheLine()
        store.send(.noticeTimeElapsed(now: at(61)))
        store.receive([])
        store.send(.noticeTimeElapsed(now: at(62))) { $0.notice = nil }
        store.receive([.report(.noticeRemoved(notice, because: .timeUp))])
        store.send(.clockFoundUnset(now: at(70), advice: "again"))
        store.receive([])
    }

    @Test func theLineGoesAsSoonAsTheClockIsSet() {
        let store = showingTheLine()
        store.send(.clockSet) { $0.notice = nil }
        store.receive([.report(.noticeRemoved(notice, because: .clockSet))])
        store.send(.noticeTimeElapsed(now: at(62)))
        store.receive([])
    }

    @Test func aClockSetBeforeItWasFoundUnsetShowsNoLine() {
        let store = AlbumTestStore()
        store.send(.clockSet)
        store.receive([])
        store.send(.clockFoundUnset(now: at(0), advice: "x"))
        store.receive([])
    }

    @Test func theLineStaysWhilePhotosComeAndGo() {
        let store = showingTheLine()
        let first = store.send(.photoListChanged(.loaded(photos("a", "b")))).preparedPhoto!
        store.receive([.prepareFrame(first, size: screen)])
        #expect(store.state.notice == notice)
    }
}

/// The view model draws the line over what is shown, never in quiet hours nor after the end.
@Suite struct ClockNoticeViewModelTests {
    let notice = FrameNotice.clockNotSet(advice: "add Wi-Fi in babyalbum.txt")

    @Test func theLineIsDrawnOverThePictureWhileTheStateHasIt() {
        var state = AlbumState(content: .showing(ShownPhoto(photo: photos("a")[0], frame: frame())))
        #expect(FrameViewModel(state: state).notice == nil)
        state.notice = notice
        #expect(FrameViewModel(state: state).notice == "Clock not set: add Wi-Fi in babyalbum.txt")
        state.content = .loading
        #expect(FrameViewModel(state: state).notice == "Clock not set: add Wi-Fi in babyalbum.txt")
    }

    @Test func quietHoursAndTheEndHideTheLine() {
        var state = AlbumState(content: .showing(ShownPhoto(photo: photos("a")[0], frame: frame())))
        state.notice = notice
        for display in [QuietDisplay.black, .powerOff, .dimmed(percent: 10)] {
            state.quiet = display
            #expect(FrameViewModel(state: state).notice == nil, "\(display)")
        }
        state.quiet = nil
        state.end = .signal(15)
        #expect(FrameViewModel(state: state).notice == nil)
    }

    /// Issue 61: a black screen with nothing to show carries the no-photos hint, but not in quiet
    /// hours, and a photo never does.
    @Test func aScreenWithNothingToShowHintsWhereThePhotosGo() {
        for content in [
            AlbumState.Content.noPhotos(.emptyAlbum), .noPhotos(.noneReadable(skipped: 3)),
            .failed(reason: "the photo folder /x does not exist"),
        ] {
            var state = AlbumState(content: content)
            #expect(FrameViewModel(state: state).hint == .noPhotos, "\(content)")
            state.quiet = .black
            #expect(FrameViewModel(state: state).hint == nil, "\(content) in quiet hours")
        }
        #expect(FrameViewModel(state: AlbumState(content: .nothingLoaded)).hint == nil)
    }
}
