import LinuxInterfaces

/// Tells the service manager how the program is doing: readiness, watchdog pings, status text and
/// shutdown, over the documented notification socket protocol (`sd_notify(3)`), without
/// libsystemd.
///
/// systemd passes the socket in `$NOTIFY_SOCKET`: a file-system path (`/run/systemd/notify`) or an
/// abstract socket name written with a leading `@`. Each notification is one datagram of
/// newline-separated `KEY=VALUE` assignments. When the variable is absent (the program was not
/// started by systemd, or by a unit that is not `Type=notify`) every call is a no-op, so the program
/// runs unchanged outside systemd.
///
/// The watchdog: with `WatchdogSec=` in the unit, systemd sets `$WATCHDOG_USEC` (and
/// `$WATCHDOG_PID`) and kills the service if no `WATCHDOG=1` arrives within that time.
/// ``watchdogInterval`` is that limit; ping at least every ``watchdogPingInterval`` (half of it, as
/// `sd_watchdog_enabled(3)` recommends) from the loop whose liveness it should prove.
public struct SystemdNotifier: Sendable, Equatable {
    /// Where notifications go, or `nil` when they are dropped.
    public let socket: NotifySocketAddress?

    /// How long systemd waits for a watchdog ping before it considers the service hung, or `nil`
    /// when the watchdog is off for this process.
    public let watchdogInterval: Duration?

    /// A notifier that sends to `socket` and expects pings within `watchdogInterval`.
    public init(socket: NotifySocketAddress?, watchdogInterval: Duration? = nil) {
        self.socket = socket
        self.watchdogInterval = watchdogInterval
    }

    /// A notifier that drops everything.
    public static let disabled = SystemdNotifier(socket: nil)

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    ///
    /// The watchdog applies to this process only when `WATCHDOG_PID` is absent or equals
    /// `processID` (`sd_watchdog_enabled(3)`). An unusable `NOTIFY_SOCKET` (not absolute, not
    /// abstract, too long) gives a notifier without a socket.
    public init(environment: [String: String], processID: Int32) {
        let socket = environment["NOTIFY_SOCKET"].flatMap(NotifySocketAddress.init(_:))
        var watchdog: Duration? = nil
        if let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 {
            let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == processID } ?? true
            if pidMatches {
                watchdog = .microseconds(Int64(clamping: usec))
            }
        }
        self.init(socket: socket, watchdogInterval: watchdog)
    }

    /// A notifier for this process, from its environment (see ``init(environment:processID:)``).
    public static func fromEnvironment() -> SystemdNotifier {
        var environment: [String: String] = [:]
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            if let value = ProcessImage.environment(name) { environment[name] = value }
        }
        return SystemdNotifier(environment: environment, processID: ProcessImage.id)
    }

    /// Whether notifications are actually sent somewhere.
    public var isEnabled: Bool { socket != nil }

    /// How often to send ``watchdogPing()``: half of ``watchdogInterval``, or `nil` without a
    /// watchdog.
    public var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// Sends `READY=1` (start-up finished; `Type=notify` units count as started from now on),
    /// with an optional `STATUS=` line.
    public func ready(status: String? = nil) throws(SystemdNotifyError) {
        try send(["READY=1"] + Self.statusLine(status))
    }

    /// Sends `WATCHDOG=1`: the program is alive. A no-op when the watchdog is off.
    public func watchdogPing() throws(SystemdNotifyError) {
        guard watchdogInterval != nil else { return }
        try send(["WATCHDOG=1"])
    }

    /// Sends `STATUS=…`, a one-line description shown by `systemctl status`.
    public func status(_ text: String) throws(SystemdNotifyError) {
        try send(Self.statusLine(text))
    }

    /// Sends `STOPPING=1` (shutting down), with an optional `STATUS=` line.
    public func stopping(status: String? = nil) throws(SystemdNotifyError) {
        try send(["STOPPING=1"] + Self.statusLine(status))
    }

    /// Sends `RELOADING=1` with the time it began (`MONOTONIC_USEC=`, `sd_notify(3)`) and an
    /// optional `STATUS=` line: the program starts again in the same process (an `exec` of
    /// itself), and its next `READY=1` ends the reload. Unlike `STOPPING=1`, after which systemd
    /// waits `TimeoutStopSec=` for the process to end and then kills it.
    public func reloading(
        status: String? = nil, monotonicMicroseconds: UInt64 = MonotonicClock.nowMicroseconds
    ) throws(SystemdNotifyError) {
        try send(["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds)"] + Self.statusLine(status))
    }

    /// Sends the assignments, one per line, as one datagram. A no-op without a socket.
    ///
    /// Each assignment is `KEY=VALUE` and must not contain a newline.
    public func send(_ assignments: [String]) throws(SystemdNotifyError) {
        guard let socket, !assignments.isEmpty else { return }
        for line in assignments {
            precondition(!line.contains("\n") && line.contains("="), "not a KEY=VALUE line: \(line)")
        }
        try socket.sendDatagram(assignments.joined(separator: "\n") + "\n")
    }

    private static func statusLine(_ status: String?) -> [String] {
        guard let status else { return [] }
        let oneLine = status.split(whereSeparator: \.isNewline).joined(separator: " ")
        return ["STATUS=\(oneLine)"]
    }
}

/// A system call of the notification protocol failed: the shared ``SystemCallFailure`` (the
/// call, the socket, the `errno`), said as a notification problem.
public struct SystemdNotifyError: Error, Equatable, CustomStringConvertible {
    /// The failed call; its `path` is the notification socket.
    public let failure: SystemCallFailure

    /// The C function that failed (`socket`, `sendto`).
    public var operation: String { failure.operation }
    /// Its `errno`.
    public var errno: Int32 { failure.code }

    /// Wraps a failed call of the protocol.
    public init(_ failure: SystemCallFailure) { self.failure = failure }

    /// An error for `operation` failing with `errno` on the notification socket `socket` (as
    /// `$NOTIFY_SOCKET` writes it).
    public init(operation: String, errno: Int32, socket: String = "NOTIFY_SOCKET") {
        self.init(SystemCallFailure(operation: operation, path: socket, code: errno))
    }

    public var description: String {
        "systemd notification failed: \(failure) (errno \(errno))"
    }
}
