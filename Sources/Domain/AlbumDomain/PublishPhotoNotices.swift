/// The notices: the "clock not set" line comes when the clock is found unset, and goes after
/// ``PublishPhoto/noticeDuration`` or as soon as the clock is set, whichever is first; an
/// update's outcome comes when it is found, over any other notice, and goes after its time.
extension Reduction {
    mutating func clockFoundUnset(now: AlbumTime, advice: String) {
        guard !album.clockIsSet, album.state.notice == nil, album.noticeEnds == nil else { return }
        showNotice(.clockNotSet(advice: advice), now: now)
    }

    mutating func clockSet() {
        album.clockIsSet = true
        guard case .clockNotSet? = album.state.notice else { return }
        removeNotice(because: .clockSet)
    }

    mutating func updateOutcomeFound(_ outcome: UpdateOutcome, now: AlbumTime) {
        removeNotice(because: .replaced)
        showNotice(.update(outcome), now: now)
    }

    mutating func noticeTimeElapsed(now: AlbumTime) {
        guard let deadline = album.noticeEnds, now >= deadline else { return }
        removeNotice(because: .timeUp)
    }

    /// Puts `notice` on screen from `now` for ``PublishPhoto/noticeDuration``.
    private mutating func showNotice(_ notice: FrameNotice, now: AlbumTime) {
        let deadline = now.advanced(by: PublishPhoto.noticeDuration)
        album.state.notice = notice
        album.noticeEnds = deadline
        effects.append(.report(.noticeShown(notice)))
        effects.append(.scheduleNoticeEnd(at: deadline))
    }

    private mutating func removeNotice(because reason: NoticeRemoval) {
        guard let notice = album.state.notice else { return }
        album.state.notice = nil
        effects.append(.report(.noticeRemoved(notice, because: reason)))
    }
}
