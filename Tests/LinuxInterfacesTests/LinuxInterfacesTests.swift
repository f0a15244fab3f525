import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct WakeupTests {
    @Test func theReadEndIsCloseOnExecAndNonBlocking() throws {
        let wakeup = try Wakeup()
        let fd = wakeup.fileDescriptor
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func signalWakesPollAndDrainLetsItSleepAgain() throws {
        let wakeup = try Wakeup()
        var fds = pollfd(fd: wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fds, 1, 0) == 0)  // control: nothing pending
        wakeup.signal()
        wakeup.signal()
        #expect(poll(&fds, 1, 1000) == 1)
        wakeup.drain()
        fds.revents = 0
        #expect(poll(&fds, 1, 0) == 0)
    }
}

@Suite struct SystemCallTests {
    @Test func minusOneTakesErrno() {
        #expect(throws: SystemCallFailure(operation: "open", path: "/nonexistent/x", code: ENOENT)) {
            try valueOrErrno("open", path: "/nonexistent/x") { open("/nonexistent/x", O_RDONLY) }
        }
    }

    @Test func negativeErrnoResultsAreFailuresOnlyWhenAsked() throws {
        errno = 0
        #expect(throws: SystemCallFailure(operation: "drmModeAddFB2", path: "card", code: EINVAL)) {
            try valueOrErrno("drmModeAddFB2", path: "card", negativeIsFailure: true) { -EINVAL }
        }
        // Without the flag only -1 fails: other negative values are results.
        #expect(try valueOrErrno("lseek", path: "x") { Int32(-EINVAL) } == -EINVAL)
        #expect(try valueOrErrno("ioctl", path: "x", negativeIsFailure: true) { Int32(7) } == 7)
    }

    @Test func interruptedCallsAreRetried() throws {
        var calls = 0
        let result = try valueOrErrno("read", path: "x") { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5 && calls == 3)
    }

    @Test func resolvedPathFollowsLinksAndDotDot() throws {
        let base = "/tmp/babyalbum-paths-\(getpid())"
        mkdir(base, 0o700)
        defer { rmdir(base) }
        symlink(base, base + "-link")
        defer { unlink(base + "-link") }
        #expect(resolvedPath(base + "-link/../" + String(base.split(separator: "/").last!)) == base)
        #expect(resolvedPath(base + "/missing") == nil)
    }
}

@Suite struct FileContentsTests {
    /// The kernel hands out `/proc` text a page per `read`; the maps of this test process run
    /// to many pages, with the stack's line near their end.
    @Test func aProcFileIsReadToItsEndNotToItsFirstPage() throws {
        let maps = try fileContents("/proc/self/maps")
        #expect(maps.count > 3 * 4096, "the file is longer than a page (the case that matters)")
        #expect(maps.last == UInt8(ascii: "\n"))
        #expect(String(decoding: maps, as: UTF8.self).contains("[stack]"))
    }

    @Test func moreThanTheLimitIsAFailureNotATruncation() {
        #expect(throws: SystemCallFailure.self) { try fileContents("/proc/self/maps", limit: 100) }
        #expect(throws: SystemCallFailure.self) { try fileContents("/nonexistent/file") }
    }
}

/// The kernel's command line: the last word for a key is its value, as the kernel takes it.
@Suite("KernelCommandLine")
struct KernelCommandLineTests {
    @Test func theLastWordForAKeyIsItsValue() {
        let line = KernelCommandLine("console=ttyS0 rauc.slot=A root=PARTUUID=0badcafe-02 rauc.slot=B panic=10\n")
        #expect(line.value(of: "rauc.slot") == "B")
        #expect(line.value(of: "root") == "PARTUUID=0badcafe-02")
        #expect(line.value(of: "rauc") == nil)
        #expect(KernelCommandLine("ro rauc.slot= quiet").value(of: "rauc.slot") == nil)
    }

    @Test func theRunningKernelsLineIsRead() throws {
        let running = KernelCommandLine.running()
        let text = try #require(textFile("/proc/cmdline"))
        #expect(!text.isEmpty)
        #expect(running.words.map(String.init) == text.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(KernelCommandLine.running(from: "/nonexistent/cmdline").words.isEmpty)
    }
}
