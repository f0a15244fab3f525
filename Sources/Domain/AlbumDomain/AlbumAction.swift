/// Something that happened, sent to the ``PublishPhoto`` reducer. Actions are named for the
/// event, not the wish. Every input reaches the domain this way: the repository's list, the
/// clock's ticks, prepared or failed frames, the screen, the exit button and signals.
public enum AlbumAction: Equatable, Sendable {
    /// The slideshow starts, continuing `round` when one was saved, on a screen of `frameSize`.
    case started(frameSize: FrameSize, savedRound: ShuffleSnapshot?)
    /// The repository published a new photo list state.
    case photoListChanged(PhotoListState)
    /// The tick scheduled by ``AlbumEffect/scheduleTick(at:)`` came due; `now` is when it fired.
    case intervalElapsed(now: AlbumTime)
    /// A frame asked for by ``AlbumEffect/prepareFrame(_:size:)`` is ready.
    case framePrepared(Photo, Frame, now: AlbumTime)
    /// A frame asked for by ``AlbumEffect/prepareFrame(_:size:)`` could not be made, and why.
    case framePreparationFailed(Photo, reason: String, now: AlbumTime)
    /// A frame could not be made and never will be from this file (an unsupported format or
    /// feature): the photo is skipped at once, without the retry of ``framePreparationFailed(_:reason:now:)``.
    case framePreparationRefused(Photo, reason: String, now: AlbumTime)
    /// Someone asked for the display to be lit or blanked (for example, quiet hours began).
    case displayPowerRequested(DisplayPower)
    /// Quiet hours began: the display goes quiet as `display` says; nothing is decoded and no
    /// tick runs until they end, and the round keeps its place.
    case quietHoursBegan(QuietDisplay)
    /// Quiet hours ended at `now`: a fresh photo comes up at once (no fade).
    case quietHoursEnded(now: AlbumTime)
    /// The wall clock was found not set since power-on at `now` (no network time, no clock
    /// module): a small line on screen says so, with `advice`, for ``PublishPhoto/noticeDuration``.
    case clockFoundUnset(now: AlbumTime, advice: String)
    /// The wall clock has been set (network time, a clock module): the line goes at once.
    case clockSet
    /// The outcome of the card's last update was found at `now`, not yet told: a small line on
    /// screen says it for ``PublishPhoto/noticeDuration``, over any other notice.
    case updateOutcomeFound(UpdateOutcome, now: AlbumTime)
    /// The time asked for by ``AlbumEffect/scheduleNoticeEnd(at:)`` came; `now` is when it fired.
    case noticeTimeElapsed(now: AlbumTime)
    /// The screen now has another size (a hotplug brought another mode or another screen).
    case frameSizeChanged(FrameSize)
    /// The hardware exit button was held.
    case exitButtonHeld(ExitRequest)
    /// The process was asked to stop (SIGTERM, SIGINT, SIGQUIT).
    case stopSignalReceived(Int32)
    /// The settings file changed (found on SIGHUP): the command starts again with it.
    case settingsChanged
    /// A display was connected to a frame that ran its slideshow without one: the command starts
    /// again to draw on it.
    case displayConnected
}
