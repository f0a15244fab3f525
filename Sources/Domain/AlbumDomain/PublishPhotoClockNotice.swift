/// The "clock not set" line: it comes when the clock is found unset, and goes after
/// ``PublishPhoto/clockNoticeDuration`` or as soon as the clock is set, whichever is first.
extension Reduction {
    mutating func clockFoundUnset(now: AlbumTime, advice: String) {
        guard !album.clockIsSet, album.state.notice == nil, album.noticeEnds == nil else { return }
        let notice = FrameNotice.clockNotSet(advice: advice)
        let deadline = now.advanced(by: PublishPhoto.clockNoticeDuration)
        album.state.notice = notice
        album.noticeEnds = deadline
        effects.append(.report(.noticeShown(notice)))
        effects.append(.scheduleNoticeEnd(at: deadline))
    }

    mutating func clockSet() {
        album.clockIsSet = true
        removeNotice(because: .clockSet)
    }

    mutating func noticeTimeElapsed(now: AlbumTime) {
        guard let deadline = album.noticeEnds, now >= deadline else { return }
        removeNotice(because: .timeUp)
    }

    private mutating func removeNotice(because reason: NoticeRemoval) {
        guard let notice = album.state.notice else { return }
        album.state.notice = nil
        effects.append(.report(.noticeRemoved(notice, because: reason)))
    }
}
