import SystemdNotify
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("SystemdNotifier")
struct SystemdNotifierTests {
    @Test("without NOTIFY_SOCKET every call is a no-op")
    func disabledWithoutSocket() throws {
        let notifier = SystemdNotifier(environment: [:], processID: 42)
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.watchdogPingInterval == nil)
        try notifier.ready(status: "ignored")
        try notifier.watchdogPing()
        try notifier.stopping()
    }

    @Test("READY=1 and STATUS= reach a path socket as one datagram")
    func readyOnPathSocket() throws {
        let listener = try DatagramListener(abstract: false)
        #expect(listener.notifySocket.hasPrefix("/tmp/"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.notifySocket], processID: 1)
        #expect(notifier.socket == .path(listener.notifySocket))
        try notifier.ready(status: "Showing 5 photos\nfrom /photos")
        #expect(listener.receive() == "READY=1\nSTATUS=Showing 5 photos from /photos\n")
        #expect(listener.receive() == nil)
    }

    @Test("an abstract '@' socket receives WATCHDOG=1 when the watchdog is for this process")
    func watchdogOnAbstractSocket() throws {
        let listener = try DatagramListener(abstract: true)
        let notifier = SystemdNotifier(
            environment: [
                "NOTIFY_SOCKET": listener.notifySocket, "WATCHDOG_USEC": "30000000",
                "WATCHDOG_PID": "\(getpid())",
            ],
            processID: getpid())
        #expect(notifier.socket == .abstract(String(listener.notifySocket.dropFirst())))
        #expect(notifier.watchdogInterval == .seconds(30))
        #expect(notifier.watchdogPingInterval == .seconds(15))
        try notifier.watchdogPing()
        try notifier.watchdogPing()
        #expect(listener.receive() == "WATCHDOG=1\n")
        #expect(listener.receive() == "WATCHDOG=1\n")
        try notifier.stopping(status: "Exit button")
        #expect(listener.receive() == "STOPPING=1\nSTATUS=Exit button\n")
        try notifier.status("Photo 3 of 7")
        #expect(listener.receive() == "STATUS=Photo 3 of 7\n")
    }

    @Test("RELOADING=1 carries the monotonic time it began, for a frame that starts again in its process")
    func reloadingCarriesMonotonicTime() throws {
        let listener = try DatagramListener(abstract: true)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.notifySocket], processID: 1)
        try notifier.reloading(status: "settings changed", monotonicMicroseconds: 123_456_789)
        #expect(listener.receive() == "RELOADING=1\nMONOTONIC_USEC=123456789\nSTATUS=settings changed\n")
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let before = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        try notifier.reloading()
        let lines = try #require(listener.receive()).split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let stamp = try #require(lines.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(lines.count == 2 && lines.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect(stamp >= before && stamp - before < 60_000_000, "MONOTONIC_USEC=\(stamp), CLOCK_MONOTONIC \(before)")
    }

    @Test("a watchdog meant for another process is off, and pings send nothing")
    func watchdogForAnotherProcess() throws {
        let listener = try DatagramListener(abstract: true)
        let notifier = SystemdNotifier(
            environment: [
                "NOTIFY_SOCKET": listener.notifySocket, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1",
            ],
            processID: 4242)
        #expect(notifier.watchdogInterval == nil)
        try notifier.watchdogPing()
        #expect(listener.receive() == nil)
        let mine = SystemdNotifier(
            environment: ["NOTIFY_SOCKET": listener.notifySocket, "WATCHDOG_USEC": "2000000"],
            processID: 4242)
        #expect(mine.watchdogInterval == .seconds(2))
        #expect(mine.watchdogPingInterval == .seconds(1))
    }

    @Test("a socket nobody listens on is a thrown sendto error with errno")
    func missingSocketThrows() throws {
        let path = "/tmp/babyalbum-no-such-socket-\(getpid())"
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path], processID: 1)
        #expect(notifier.isEnabled)
        let error = #expect(throws: SystemdNotifyError(operation: "sendto", errno: ENOENT, socket: path)) {
            try notifier.ready()
        }
        #expect(error?.description.contains(path) == true)
    }

    @Test(
        "NOTIFY_SOCKET values that are not a usable AF_UNIX address are ignored",
        arguments: ["", "relative/path", "@", "vsock:2:1234", "/" + String(repeating: "x", count: 200)])
    func unusableAddresses(value: String) {
        #expect(NotifySocketAddress(value) == nil)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": value], processID: 1).isEnabled)
    }

    @Test(
        "WATCHDOG_USEC that is zero or not a number turns the watchdog off",
        arguments: ["0", "", "abc", "-5"])
    func badWatchdogValues(value: String) {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": value], processID: 1)
        #expect(notifier.watchdogInterval == nil)
    }
}
