/// What the ``PublishPhoto`` reducer asks the runner at the edge to do, as a plain value. The
/// runner performs it (off the domain, file I/O off the cooperative pool) and feeds the result
/// back as an ``AlbumAction``.
public enum AlbumEffect: Equatable, Sendable {
    /// Decode `photo` and scale it to `size`; answer with ``AlbumAction/framePrepared(_:_:now:)``
    /// or ``AlbumAction/framePreparationFailed(_:reason:now:)``. One at a time: the reducer asks
    /// for the next only after the last one answered.
    case prepareFrame(Photo, size: FrameSize)
    /// Keep where the shuffle round stands, for a restart (the ``ShuffleMemory``).
    case saveRound(ShuffleSnapshot)
    /// Send ``AlbumAction/intervalElapsed(now:)`` at `deadline`, replacing any tick scheduled before.
    case scheduleTick(at: AlbumTime)
    /// Forget the scheduled tick.
    case cancelTick
    /// Send ``AlbumAction/noticeTimeElapsed(now:)`` at `deadline` (the notice on screen goes then).
    case scheduleNoticeEnd(at: AlbumTime)
    /// Tell the log what happened.
    case report(AlbumEvent)
    /// The album has ended: stop feeding actions once the view has drawn the final state.
    case end
}
