/// Quiet hours: the display goes quiet, nothing is decoded and no tick runs; the round keeps
/// its place. On waking a fresh photo comes up at once, without a fade.
extension Reduction {
    mutating func quietHoursBegan(_ display: QuietDisplay) {
        guard album.state.quiet != display else { return }
        let wasQuiet = album.state.quiet != nil
        album.state.quiet = display
        album.state.displayPower = display == .powerOff ? .off : .on
        album.state.fade = nil
        guard !wasQuiet else { return }
        effects.append(.report(.quietHoursBegan(display)))
        album.tickIsDue = false
        cancelPendingTick()
    }

    mutating func quietHoursEnded(now: AlbumTime) {
        guard album.state.quiet != nil else { return }
        album.state.quiet = nil
        album.state.displayPower = .on
        effects.append(.report(.quietHoursEnded))
        presentReadyFrameOrWaitForIt(now: now)
        album.state.fade = nil
    }
}
