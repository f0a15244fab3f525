import LinuxInterfaces
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Follows the mounts below a folder (`/media/babyalbum`) through `/proc/self/mountinfo`, which
/// the kernel marks with `POLLPRI` on every mount and unmount in the namespace; inotify does not
/// see a mount over an existing directory. Calls `onChange` with the sorted mount points, first
/// at once, then on each change, on its own thread until ``stop()``.
public final class MountWatcher: Sendable {
    private let wakeup: Wakeup
    private let thread: JoinableThread

    /// Starts watching the mounts below `root`.
    public init(root: String, logger: Logger, onChange: @escaping @Sendable ([String]) -> Void) throws {
        let wakeup = try Wakeup()
        let descriptor = open(MountTable.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallFailure(operation: "open", path: MountTable.path, code: errno) }
        self.wakeup = wakeup
        do {
            thread = try JoinableThread {
                Self.watch(descriptor: descriptor, root: root, wakeup: wakeup, logger: logger, onChange: onChange)
                close(descriptor)
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Stops the thread and waits for it.
    public func stop() {
        wakeup.signal()
        thread.join()
    }

    private static func watch(
        descriptor: Int32, root: String, wakeup: Wakeup, logger: Logger, onChange: @Sendable ([String]) -> Void
    ) {
        var last: [String]?
        while true {
            let now = MountTable.mountPoints(below: root, in: MountTable.read())
            if now != last {
                for point in now where !(last ?? []).contains(point) { logger.notice("stick mounted: \(point)") }
                for point in last ?? [] where !now.contains(point) { logger.notice("stick removed: \(point)") }
                last = now
                onChange(now)
            }
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLPRI), revents: 0),
                pollfd(fd: wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
        }
    }
}
