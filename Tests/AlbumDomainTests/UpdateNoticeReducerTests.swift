import AlbumDomain
import Testing

/// An update's outcome in the reducer (issue 64): one line for a minute, over the "Clock not set"
/// line if that shows, and the clock being set does not take it away.
@Suite struct UpdateNoticeReducerTests {
    let installed = FrameNotice.update(.installed(version: "0.5.0"))

    @Test func theOutcomeShowsForAMinute() {
        let store = AlbumTestStore()
        store.send(.started(frameSize: screen, savedRound: nil)) { $0.content = .loading }
        store.receive([])
        store.send(.updateOutcomeFound(.installed(version: "0.5.0"), now: at(3))) { $0.notice = installed }
        store.receive([.report(.noticeShown(installed)), .scheduleNoticeEnd(at: at(63))])
        #expect(installed.text == "Updated to 0.5.0")
        store.send(.noticeTimeElapsed(now: at(62)))
        store.receive([])
        store.send(.noticeTimeElapsed(now: at(63))) { $0.notice = nil }
        store.receive([.report(.noticeRemoved(installed, because: .timeUp))])
    }

    @Test func theOutcomeTakesTheClockLinesPlaceAndStaysWhenTheClockIsSet() {
        let store = AlbumTestStore()
        let clock = FrameNotice.clockNotSet(advice: "add Wi-Fi in babyalbum.txt")
        store.send(.clockFoundUnset(now: at(1), advice: "add Wi-Fi in babyalbum.txt")) { $0.notice = clock }
        store.receive([.report(.noticeShown(clock)), .scheduleNoticeEnd(at: at(61))])
        let refused = FrameNotice.update(.refused(reason: "not signed for this frame"))
        store.send(.updateOutcomeFound(.refused(reason: "not signed for this frame"), now: at(30))) {
            $0.notice = refused
        }
        store.receive([
            .report(.noticeRemoved(clock, because: .replaced)), .report(.noticeShown(refused)),
            .scheduleNoticeEnd(at: at(90)),
        ])
        #expect(refused.text == "Update refused: not signed for this frame")
        store.send(.clockSet)
        store.receive([])
        // The clock line's own end passes: the outcome has its own minute.
        store.send(.noticeTimeElapsed(now: at(61)))
        store.receive([])
        store.send(.noticeTimeElapsed(now: at(90))) { $0.notice = nil }
        store.receive([.report(.noticeRemoved(refused, because: .timeUp))])
    }

    @Test func aRollBackSaysWhichSystemRuns() {
        #expect(
            FrameNotice.update(.rolledBack(version: "0.4.1")).text == "The update did not start: back to 0.4.1")
    }
}
