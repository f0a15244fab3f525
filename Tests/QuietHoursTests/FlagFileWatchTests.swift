import TestSupport
import Testing

@testable import QuietHours

/// The flag file's watch goes down its folders as they appear, also when one appears while the
/// watch is being placed (a cold run's `theWatcherTurnsQuietWhenTheFlagArrives(missing: 2)` once
/// saw nothing in 5 s after the flag came, 2026-12-07).
@Suite struct FlagFileWatchTests {
    /// `/run/systemd/timesync` made between the watch's failed look at it and its watch on
    /// `/run/systemd`, as timesyncd may make it while the frame starts: the flag written next is
    /// still seen.
    @Test func aFolderMadeWhileTheWatchIsPlacedIsWatched() throws {
        let run = try TemporaryFolder()
        defer { run.remove() }
        try run.makeDirectory("systemd")
        let flag = run.file("systemd/timesync/synchronized")
        var missing: [String] = []
        let watch = try FlagFileWatch(files: [flag]) { folder in
            missing.append(folder)
            if folder.hasSuffix("/systemd/timesync") { try? run.makeDirectory("systemd/timesync") }
        }
        #expect(missing.count == 1 && missing[0].hasSuffix("/systemd/timesync"), "the window: \(missing)")
        #expect(watch.consume().isEmpty, "nothing of interest happened yet")

        _ = try run.write("systemd/timesync/synchronized", bytes: 0)
        #expect(Set(watch.consume()) == [flag], "created and written: told once or twice")
    }

    /// The folders made after the watch was placed, one after the other: the watch goes down
    /// each (the events tell), and the flag is seen.
    @Test func foldersMadeLaterAreWatchedInTurn() throws {
        let run = try TemporaryFolder()
        defer { run.remove() }
        let flag = run.file("systemd/timesync/synchronized")
        let watch = try FlagFileWatch(files: [flag])
        try run.makeDirectory("systemd")
        #expect(watch.consume() == [flag], "the watch moved: the flag may have come meanwhile")
        try run.makeDirectory("systemd/timesync")
        #expect(watch.consume() == [flag], "the watch moved again")
        _ = try run.write("systemd/timesync/not-the-flag", bytes: 0)
        #expect(watch.consume().isEmpty)
        _ = try run.write("systemd/timesync/synchronized", bytes: 0)
        #expect(Set(watch.consume()) == [flag], "created and written: told once or twice")
    }
}
