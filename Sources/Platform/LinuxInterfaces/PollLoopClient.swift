/// The body of a ``PollLoop``: called on the loop's thread only, one call at a time.
public protocol PollLoopClient: AnyObject {
    /// Called once on the loop's thread, before the first wait.
    func loopStarted()
    /// Before each wait: what to wait for.
    func nextWait() -> PollWait
    /// After each wait: the events of each descriptor of ``nextWait()``, in its order (all empty
    /// after a timeout).
    func handle(_ ready: [PollEvents]) -> PollNext
    /// Called once on the loop's thread when the loop ends, however it ends.
    func loopEnded()
}

extension PollLoopClient {
    /// Nothing to do before the first wait.
    public func loopStarted() {}
    /// Nothing to do at the end.
    public func loopEnded() {}
}
