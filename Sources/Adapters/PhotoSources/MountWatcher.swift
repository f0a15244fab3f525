import LinuxInterfaces
import Logging
import Synchronization

/// Follows the mounts below a folder (`/media/babyalbum`) through the process's one watch of
/// `/proc/self/mountinfo` (``MountTableWatch``); inotify does not see a mount over an existing
/// directory. Calls `onChange` with the sorted mount points, first at once, then on each
/// change, on the watch's thread until ``stop()``.
public final class MountWatcher: Sendable {
    private let subscription: MountTableWatch.Subscription

    /// Starts watching the mounts below `root`.
    public init(root: String, logger: Logger, onChange: @escaping @Sendable ([String]) -> Void) throws {
        let last = Mutex<[String]?>(nil)
        subscription = try MountTableWatch.subscribe(logger: logger, initialCall: true) {
            let now = MountTable.mountPoints(below: root, in: MountTable.read())
            let previous = last.withLock { last in
                defer { last = now }
                return last
            }
            guard now != previous else { return }
            for point in now where !(previous ?? []).contains(point) { logger.notice("stick mounted: \(point)") }
            for point in previous ?? [] where !now.contains(point) { logger.notice("stick removed: \(point)") }
            onChange(now)
        }
    }

    /// Stops the calls; once this returns, `onChange` is not running and will not run again.
    public func stop() {
        subscription.cancel()
    }
}
