import LinuxInterfaces
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct MountTableWatchTests {
    /// Waits up to 10 s for `condition`.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test(
        "every subscriber hears a mount through the one watch; a cancelled one hears nothing more",
        .enabled(if: getuid() == 0, "needs root: it mounts"), .timeLimit(.minutes(1)))
    func subscribersHearMounts() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("target")
        #expect(mkdir(target, 0o755) == 0)
        let logger = LogRecorder().logger
        let first = Mutex(0)
        let second = Mutex(0)
        let initial = Mutex(0)
        let one = try MountTableWatch.subscribe(logger: logger) { first.withLock { $0 += 1 } }
        let two = try MountTableWatch.subscribe(logger: logger) { second.withLock { $0 += 1 } }
        let three = try MountTableWatch.subscribe(logger: logger, initialCall: true) { initial.withLock { $0 += 1 } }
        defer { three.cancel() }
        #expect(try await eventually { initial.withLock { $0 } >= 1 })
        two.cancel()
        let secondBefore = second.withLock { $0 }
        #expect(system("mount -t tmpfs babyalbum-test \(target)") == 0)
        defer { _ = system("umount -l \(target)") }
        #expect(try await eventually { first.withLock { $0 } >= 1 })
        one.cancel()
        #expect(second.withLock { $0 } == secondBefore)
    }
}
