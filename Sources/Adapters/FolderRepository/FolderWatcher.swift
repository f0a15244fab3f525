import AlbumDomain
import LinuxInterfaces
import Logging
import Synchronization

/// Watches the photo folder on its own ``PollLoop``, which waits on the inotify descriptor and
/// publishes the photo list whenever the set of ready photos changes. A mount or unmount
/// (``MountTableWatch``, the process's one watch of `/proc/self/mountinfo`) is handed to the
/// loop's thread: inotify says nothing when a USB stick is mounted over the photo folder or its
/// parent.
///
/// One owner: the watcher owns the loop and the mount subscription; the loop's client owns the
/// inotify descriptor. ``stop()`` ends the loop and joins it; the descriptors close after it.
final class FolderWatcher: Sendable {
    private let loop: PollLoop
    private let mounts: MountTableWatch.Subscription?

    /// Starts watching `folder`; `publish` is called on the watcher thread.
    init(
        folder: String, timing: FolderWatchTiming, limits: FolderScanLimits, logger: Logger,
        publish: @escaping @Sendable (PhotoListState) -> Void
    ) throws(FolderError) {
        let client = WatchLoop(
            inotify: try Inotify(), folder: folder, timing: timing, limits: limits, logger: logger, publish: publish)
        let loop = try PollLoop(name: "photo folder \(folder)", logger: logger, client: client)
        self.loop = loop
        do {
            mounts = try MountTableWatch.subscribe(logger: logger) { loop.post { client.mountTableChanged() } }
        } catch {
            logger.warning("cannot follow mounts for \(folder) (\(error)); a stick mounted over it is not seen")
            mounts = nil
        }
    }

    /// Stops the thread and waits for it (at most one scan batch).
    func stop() {
        mounts?.cancel()
        loop.stop()
    }

    /// Stops the thread without waiting for it here: a helper thread joins it. For the stream's
    /// termination handler, which runs inside `Task.cancel()` of the consumer while the Swift
    /// runtime holds that task's status-record lock; a publish from the watcher thread resumes the
    /// consumer and waits for that lock, so joining the watcher there deadlocks (seen under
    /// qemu-user, where a scan of thousands of photos outlasts a test's timeout).
    func stopWithoutWaiting() {
        mounts?.cancel(waiting: false)  // a late call only posts to the stopped loop, which drops it
        loop.stopWithoutWaiting()
    }
}

/// The watcher thread's loop. Touched by that thread only, hence `@unchecked Sendable`.
private final class WatchLoop: PollLoopClient, @unchecked Sendable {
    private let inotify: Inotify
    private let index: FolderIndex

    init(
        inotify: Inotify, folder: String, timing: FolderWatchTiming, limits: FolderScanLimits, logger: Logger,
        publish: @escaping @Sendable (PhotoListState) -> Void
    ) {
        self.inotify = inotify
        index = FolderIndex(
            root: folder, inotify: inotify, timing: timing, limits: limits, logger: logger, publish: publish)
    }

    func loopStarted() { index.start() }

    func nextWait() -> PollWait {
        index.publishIfChanged()
        let timeout = index.pollTimeout()
        return PollWait([(inotify.fileDescriptor, .readable)], timeout: timeout < 0 ? nil : .milliseconds(timeout))
    }

    func handle(_ ready: [PollEvents]) -> PollNext {
        if !ready[0].isEmpty { index.handle(inotify.readEvents()) }
        index.processDeadlines()
        index.scanStep()
        return .wait
    }

    /// The mount table changed (on the loop's thread, before its next turn).
    func mountTableChanged() { index.mountTableChanged() }
}
