import Foundation
import Logging
import QuietHours
import Synchronization
import TestSupport
import Testing

/// The watcher looks at an unset clock again when timesyncd's flag arrives, not on a timer:
/// timesyncd steps the clock first and touches `/run/systemd/timesync/synchronized` only after,
/// so the wall-clock timer's wake-up comes too early (issue 63). A temporary folder stands in for
/// `/run`; the recheck is an hour, so only the file's arrival can wake the watcher in time.
@Suite struct ClockFileWakeTests {
    /// Quiet at every hour, once the clock is known.
    struct AlwaysQuiet: QuietTimetable {
        func isQuiet(at date: Date) -> Bool { true }
        func nextEdge(after date: Date) -> Date? { nil }
    }

    /// How long the watcher may take to tell after the flag arrived: a wake by the file, since the
    /// recheck is an hour away. A second on this machine; 5 s leaves room for the run's other
    /// tests beside it (4 times that under qemu-user, where 4 s once ran out with the machine's
    /// load at 7). The card's own figure, timesyncd's line to the frame's, is the Image suite's
    /// clock step's (goal 5 s).
    let promptness = patient(.seconds(5))

    /// `missing`: how many of the flag's folders (`systemd`, `systemd/timesync`) do not exist when
    /// the watcher starts: 0 watches the flag's own folder, 1 `/run/systemd` (timesyncd not
    /// started yet), 2 `/run`.
    @Test(arguments: [0, 1, 2])
    func theWatcherTurnsQuietWhenTheFlagArrives(missing: Int) throws {
        let run = try TemporaryFolder()
        defer { run.remove() }
        let folders = ["systemd", "systemd/timesync"]
        for folder in folders.dropLast(missing) { try run.makeDirectory(folder) }
        let flag = run.file("systemd/timesync/synchronized")
        let told = Mutex<[Bool]>([])
        let watcher = try QuietHoursWatcher(timetable: timetable(flag: flag), clockFiles: [flag], logger: logger) {
            quiet in told.withLock { $0.append(quiet) }
        }
        defer { watcher.stop() }
        try #require(waitUntil(within: promptness) { told.withLock { $0 } == [false] }, "the state at start")

        for folder in folders.suffix(missing) { try run.makeDirectory(folder) }
        try run.write("systemd/timesync/not-the-flag", bytes: 0)
        usleep(200_000)  // the watch moves down to the new folders before the flag comes
        #expect(told.withLock { $0 } == [false], "nothing but the flag tells the clock is set")

        let arrived = ContinuousClock.now
        try run.write("systemd/timesync/synchronized", bytes: 0)  // as timesyncd's touch: open, close
        let quiet = waitUntil(within: promptness) { told.withLock { $0 } == [false, true] }
        #expect(quiet, "quiet \(ContinuousClock.now - arrived) after the flag arrived: \(told.withLock { $0 })")
    }

    @Test func theClockModulesReportWakesTheWatcherToo() throws {
        let run = try TemporaryFolder()
        defer { run.remove() }
        let report = run.file("babyalbum-clock-module")
        let told = Mutex<[Bool]>([])
        let watcher = try QuietHoursWatcher(
            timetable: timetable(flag: report), clockFiles: [run.file("systemd/timesync/synchronized"), report],
            logger: logger
        ) { quiet in told.withLock { $0.append(quiet) } }
        defer { watcher.stop() }
        try #require(waitUntil(within: promptness) { told.withLock { $0 } == [false] }, "the state at start")

        let arrived = ContinuousClock.now
        try ClockModuleState.setTheClock(chip: "DS3231", rtc: "rtc0", time: "now").fileText.write(
            toFile: report, atomically: true, encoding: .utf8)
        let quiet = waitUntil(within: promptness) { told.withLock { $0 } == [false, true] }
        #expect(quiet, "quiet \(ContinuousClock.now - arrived) after the report arrived: \(told.withLock { $0 })")
    }

    /// The flag may arrive between any two of the watcher's looks at the clock: in turn, each of
    /// its first eight looks creates the flag as it reads it, and a watcher asleep before that
    /// look gets it from the test (its look after the last check once dropped the watch with the
    /// flag's event unread, and the watcher slept until the recheck: 30 s on the card).
    @Test(arguments: 1...8)
    func theFlagArrivingDuringALookAtTheClockWakesTheWatcher(look: Int) throws {
        let run = try TemporaryFolder()
        defer { run.remove() }
        try run.makeDirectory("systemd")
        try run.makeDirectory("systemd/timesync")
        let flag = run.file("systemd/timesync/synchronized")
        let looks = Mutex(0)
        let timetable = ClockAwareTimetable(
            schedule: AlwaysQuiet(), policy: .keepShowing, logger: logger, recheck: 3600,
            clockSource: {
                if looks.withLock({
                    $0 += 1
                    return $0
                }) == look {
                    _ = FileManager.default.createFile(atPath: flag, contents: nil)
                }
                return FileManager.default.fileExists(atPath: flag) ? .network : nil
            })
        let told = Mutex<[Bool]>([])
        let watcher = try QuietHoursWatcher(timetable: timetable, clockFiles: [flag], logger: logger) {
            quiet in told.withLock { $0.append(quiet) }
        }
        defer { watcher.stop() }
        // A watcher that went to sleep before its `look`th look gets the flag now, as on a card.
        try #require(waitUntil(within: promptness) { !told.withLock { $0 }.isEmpty }, "the state at start")
        usleep(200_000)
        if !FileManager.default.fileExists(atPath: flag) { try run.write("systemd/timesync/synchronized", bytes: 0) }
        let quiet = waitUntil(within: promptness) { told.withLock { $0.last } == true }
        #expect(quiet, "the flag came at look \(look) of \(looks.withLock { $0 }): told \(told.withLock { $0 })")
    }

    private var logger: Logger { Logger(label: "test") }

    /// Always quiet once `flag` exists; until then the clock is unknown and the photos are shown,
    /// looked at again after an hour only.
    private func timetable(flag: String) -> ClockAwareTimetable<AlwaysQuiet> {
        ClockAwareTimetable(
            schedule: AlwaysQuiet(), policy: .keepShowing, logger: logger, recheck: 3600,
            clockSource: { FileManager.default.fileExists(atPath: flag) ? .network : nil })
    }

    /// Whether `condition` holds within `limit`, looked at every 10 ms.
    private func waitUntil(within limit: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
