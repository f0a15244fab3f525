import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decides from "now", never from events: tells whether the wall clock is inside the quiet
/// hours at start, at every edge of a window, and whenever the wall clock is set. Between
/// those, its ``PollLoop`` sleeps on a ``WallClockTimer``: nothing wakes the process. While the
/// timetable awaits the clock (``QuietTimetable/awaitsClock``), it also wakes when one of the
/// ``clockFiles`` arrives (inotify): timesyncd steps the clock first and says it is synchronised
/// only after, so the timer's wake-up alone comes too early.
public final class QuietHoursWatcher: Sendable {
    /// The files whose arrival may mean that the clock was set: systemd-timesyncd's flag and the
    /// clock module's report.
    public static let clockFiles = [ClockSynchronisation.timesyncFlag, ClockModuleReport.file]

    private let loop: PollLoop

    /// Starts watching `timetable` (a ``QuietSchedule`` on the system's calendar) and, while it
    /// awaits the clock, `clockFiles`; `quietChanged` is called on the watcher's thread, first
    /// with the state now, then with each change.
    public init(
        timetable: some QuietTimetable, clockFiles: [String] = QuietHoursWatcher.clockFiles, logger: Logger,
        quietChanged: @escaping @Sendable (_ isQuiet: Bool) -> Void
    ) throws {
        let client = WatchLoop(
            timer: try WallClockTimer(), timetable: timetable, logger: logger, quietChanged: quietChanged)
        if timetable.awaitsClock { client.watch(clockFiles) }
        loop = try PollLoop(name: "quiet hours", logger: logger, client: client)
    }

    /// Stops the thread and waits for it.
    public func stop() {
        loop.stop()
    }
}

/// The watcher's loop, on its own thread.
private final class WatchLoop<Timetable: QuietTimetable>: PollLoopClient {
    let timer: WallClockTimer
    let timetable: Timetable
    let logger: Logger
    let quietChanged: @Sendable (Bool) -> Void
    /// The clock's files, watched while the timetable awaits the clock.
    private var clockFiles: FlagFileWatch?
    private var told: Bool?
    /// Whether the timer must be armed again before the next wait (not after a spurious wake-up).
    private var mustArm = true
    /// Whether the last arming failed (logged once, tried again each minute).
    private var failing = false

    init(
        timer: WallClockTimer, timetable: Timetable, logger: Logger, quietChanged: @escaping @Sendable (Bool) -> Void
    ) {
        self.timer = timer
        self.timetable = timetable
        self.logger = logger
        self.quietChanged = quietChanged
    }

    /// Watches `files` (before the first look at the clock, so that no arrival is missed).
    func watch(_ files: [String]) {
        do {
            clockFiles = try FlagFileWatch(files: files)
        } catch {
            logger.warning("quiet hours: cannot watch \(files) (\(error)); the clock is looked at on a timer only")
        }
    }

    func nextWait() -> PollWait {
        while mustArm {
            // Read before the clock is: the clock file may arrive after the last look below, and
            // its watch must then stay to wake the loop (a known clock stays known).
            let awaitedClock = clockFiles != nil && timetable.awaitsClock
            let now = Date()
            let quiet = timetable.isQuiet(at: now)
            if quiet != told {
                quietChanged(quiet)
                told = quiet
            }
            // With no edge ahead the timer still watches for the clock being set.
            let edge = timetable.nextEdge(after: now) ?? now.addingTimeInterval(7 * 86_400)
            do {
                if try timer.arm(until: edge) {
                    logger.notice("the wall clock was set: it is now \(Date()); checking the quiet hours again")
                    continue
                }
            } catch {
                if !failing {
                    logger.error("quiet hours: cannot arm the wall-clock timer (\(error)); trying again each minute")
                }
                failing = true
                return PollWait([], timeout: .seconds(60))
            }
            if failing { logger.notice("quiet hours: the wall-clock timer works again") }
            failing = false
            // The clock may have been set between reading it and arming: look again.
            guard timetable.isQuiet(at: Date()) == quiet else { continue }
            logger.debug("quiet hours: next edge \(edge)")
            mustArm = false
            if !awaitedClock { clockFiles = nil }
        }
        return PollWait([(timer.fileDescriptor, .readable), (clockFiles?.fileDescriptor ?? -1, .readable)])
    }

    func handle(_ ready: [PollEvents]) -> PollNext {
        guard ready.count == 2 else { return .wait }  // the retry after a failed arming
        if !ready[0].isEmpty { timerWoke() }
        if !ready[1].isEmpty { clockFilesWoke() }
        return .wait
    }

    private func timerWoke() {
        switch timer.consume() {
        case .expired: mustArm = true
        case .clockChanged:
            logger.notice("the wall clock was set: it is now \(Date()); checking the quiet hours again")
            mustArm = true
        case .nothing: break
        }
    }

    private func clockFilesWoke() {
        let changed = clockFiles?.consume() ?? []
        guard !changed.isEmpty else { return }
        logger.info("quiet hours: \(changed.joined(separator: ", ")) arrived or changed; checking the clock again")
        mustArm = true
    }
}
