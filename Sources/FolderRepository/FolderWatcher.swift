import AlbumDomain
import LinuxInterfaces
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Watches the photo folder on its own thread, which blocks in `poll` on the inotify descriptor
/// (and a wake-up pipe) and publishes the photo list whenever the set of ready photos changes.
///
/// One owner: the watcher owns the thread and the wake-up descriptor; the thread's loop owns the
/// inotify descriptor. ``stop()`` wakes the thread and joins it; the descriptors close after it.
final class FolderWatcher: Sendable {
    private let wakeup: Wakeup
    private let thread: JoinableThread

    /// Starts watching `folder`; `publish` is called on the watcher thread.
    init(
        folder: String, timing: FolderWatchTiming, limits: FolderScanLimits, logger: Logger,
        publish: @escaping @Sendable (PhotoListState) -> Void
    ) throws(FolderError) {
        let loop = WatchLoop(
            inotify: try Inotify(), folder: folder, timing: timing, limits: limits, logger: logger, publish: publish)
        let wakeup = try Wakeup()
        self.wakeup = wakeup
        do {
            thread = try JoinableThread { loop.run(until: wakeup) }
        } catch {
            throw FolderError(operation: "pthread_create", path: folder, code: error.code)
        }
    }

    /// Stops the thread and waits for it (at most one scan batch).
    func stop() {
        wakeup.signal()
        thread.join()
    }

    /// Stops the thread without waiting for it here: a helper thread joins it. For the stream's
    /// termination handler, which runs inside `Task.cancel()` of the consumer while the Swift
    /// runtime holds that task's status-record lock; a publish from the watcher thread resumes the
    /// consumer and waits for that lock, so joining the watcher there deadlocks (seen under
    /// qemu-user, where a scan of thousands of photos outlasts a test's timeout).
    func stopWithoutWaiting() {
        wakeup.signal()
        do {
            try JoinableThread.detach { self.stop() }
        } catch {
            // No thread for the join: the watcher still ends on the wake-up, unjoined.
        }
    }
}

/// The watcher thread's loop. Touched by that thread only, hence `@unchecked Sendable`.
private final class WatchLoop: @unchecked Sendable {
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

    /// Runs until `wakeup` is signalled.
    ///
    /// Besides inotify, it polls `/proc/self/mountinfo` for `POLLPRI` (the mount table changed):
    /// inotify says nothing when a USB stick is mounted over the photo folder or its parent.
    func run(until wakeup: Wakeup) {
        let mounts = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        defer { if mounts >= 0 { close(mounts) } }
        index.start()
        var descriptors = [
            pollfd(fd: inotify.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0),
        ]
        while true {
            index.publishIfChanged()
            let timeout = index.pollTimeout()
            for slot in descriptors.indices { descriptors[slot].revents = 0 }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0, errno != EINTR { return }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0 { index.handle(inotify.readEvents()) }
            if descriptors[2].revents != 0 { index.mountTableChanged() }
            index.processDeadlines()
            index.scanStep()
        }
    }
}
