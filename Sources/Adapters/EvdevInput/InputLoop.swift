import CEvdev
import LinuxInterfaces
import Logging
import Synchronization

/// The input thread: owns every grabbed device and the `/dev/input` watcher, and sleeps in its
/// ``PollLoop`` on them. It grabs new devices as they appear, closes those that go away,
/// swallows every event, and forwards only the exit keys of the devices allowed to carry the button.
///
/// Thread confinement: the device state is touched by ``start()`` before the thread exists, then only
/// by the thread, then (after `pthread_join`) by ``stop()``. Only the loop is shared.
final class InputLoop: @unchecked Sendable {
    /// A grabbed device, and whether and why it may carry the exit button.
    private struct Grabbed {
        var device: InputDevice
        var choice: ExitDeviceChoice
        var exitKeys: [KeyCode] { choice.exitKeys }
    }

    /// How long a new node may refuse to open (udev still setting its permissions) before we give up.
    static let settleTime = Duration.seconds(2)
    /// How often such a node is retried.
    static let retryInterval = Duration.milliseconds(100)

    private let directory: String
    private let policy: ExitButtonPolicy
    private let logger: Logger
    private let onButton: @Sendable (ButtonEvent) -> Void
    private let loop = Mutex<PollLoop?>(nil)
    private let stopped = Mutex(false)

    // Confined state (see the type's doc comment).
    private var devices: [Grabbed] = []
    private var pending: [String: ContinuousClock.Instant] = [:]
    /// Devices whose last read stopped at its limit: libevdev may hold events that `poll` cannot see.
    private var backlog: Set<String> = []
    private var watcher: DeviceDirectoryWatcher?

    /// Creates the loop; nothing is opened until ``start()``.
    init(
        directory: String, policy: ExitButtonPolicy, logger: Logger,
        onButton: @escaping @Sendable (ButtonEvent) -> Void
    ) throws(InputError) {
        self.directory = directory
        self.policy = policy
        self.logger = logger
        self.onButton = onButton
    }

    deinit {
        closeAll()
    }

    /// Watches the directory, grabs every device in it, logs the summary, then starts the thread.
    func start() throws(InputError) {
        watcher = try DeviceDirectoryWatcher(directory: directory)
        let names = try DeviceDirectoryWatcher.eventNodes(in: directory)
        for name in names {
            do throws(InputError) {
                try open(path: directory + "/" + name)
            } catch {
                logger.error("input: cannot take \(error)")
            }
        }
        refreshChoices(announce: false)
        logSummary(found: names.count)
        try spawnThread()
    }

    /// Wakes the thread, waits for it to release every grab and close every device. Idempotent.
    func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        loop.withLock { $0.take() }?.stop()
        closeAll()
    }

    // MARK: Devices

    private func logSummary(found: Int) {
        if devices.count == found {
            logger.info("input: grabbed \(found) of \(found) input devices; every event is swallowed")
        } else {
            let missed = "the events of the other \(found - devices.count) still reach the system"
            logger.warning("input: grabbed \(devices.count) of \(found) input devices; \(missed) (errors above)")
        }
        for grabbed in devices { logChoice(of: grabbed) }
        if !devices.contains(where: { $0.choice.mayExit }) {
            logger.warning(
                """
                input: NO grabbed input device carries the exit button (\(policy.keyNames)\
                \(policy.device.map { " on a device matching '\($0)'" } ?? " on a button that is not a keyboard")): \
                the frame can only be left by cutting the power or over SSH. Check --exit-key/--exit-device; \
                `babyalbum doctor` lists the devices.
                """)
        }
    }

    /// Logs whether the device may end the slideshow, and why.
    private func logChoice(of grabbed: Grabbed) {
        if grabbed.choice.mayExit {
            let keys = grabbed.exitKeys.map { KeyName.name(for: $0) }.joined(separator: ", ")
            let hold = policy.hold == .zero ? "on press" : "held \(policy.hold.secondsText) s"
            logger.info("input: exit button \(keys) (\(hold)) on \(grabbed.device.label): \(grabbed.choice.reason)")
        } else {
            logger.info("input: \(grabbed.device.label) \(grabbed.choice)")
        }
    }

    /// Decides again, for every device, whether it may carry the exit button: a keyboard that
    /// arrives or leaves changes it for the other interfaces of its USB or Bluetooth device. Keys
    /// that stop counting are reported released; with `announce`, changes are logged.
    private func refreshChoices(announce: Bool) {
        let identities = devices.map(\.device.identity)
        for index in devices.indices {
            let choice = ExitDeviceChoice.decide(for: identities[index], among: identities, policy: policy)
            guard choice != devices[index].choice else { continue }
            let dropped = devices[index].exitKeys.filter { !choice.exitKeys.contains($0) }
            devices[index].choice = choice
            for key in dropped {
                onButton(ButtonEvent(device: devices[index].device.label, key: key, isPressed: false))
            }
            if announce { logChoice(of: devices[index]) }
        }
    }

    /// Opens and grabs the device at `path` and adds it to ``devices`` (its choice is made by
    /// ``refreshChoices(announce:)``).
    private func open(path: String) throws(InputError) {
        let device = try InputDevice(path: path)
        try device.grab()
        let undecided = ExitDeviceChoice(exitKeys: [], reason: "not decided yet")
        devices.append(Grabbed(device: device, choice: undecided))
        logger.debug("input: grabbed \(device.label)")
    }

    /// Closes the device at `path` (if open), reporting its exit keys released.
    private func remove(path: String, reason: String) {
        guard let index = devices.firstIndex(where: { $0.device.path == path }) else { return }
        let gone = devices.remove(at: index)
        backlog.remove(path)
        for key in gone.exitKeys {
            onButton(ButtonEvent(device: gone.device.label, key: key, isPressed: false))
        }
        logger.info("input: closed \(gone.device.label): \(reason)")
        refreshChoices(announce: true)
    }

    /// Tries to take a node that just appeared or changed; permission and missing-node errors are
    /// retried for ``settleTime`` (udev may not have set its permissions yet).
    private func tryNewNode(path: String, now: ContinuousClock.Instant) {
        if let open = devices.first(where: { $0.device.path == path }) {
            guard let node = try? PathStatus(pathBytes: Array(path.utf8)), node.nodeDevice != open.device.deviceNumber
            else { return }
            remove(path: path, reason: "its node now names another device")
        }
        do throws(InputError) {
            try open(path: path)
            pending[path] = nil
            logger.info("input: grabbed new input device \(devices[devices.count - 1].device.label)")
            refreshChoices(announce: true)
        } catch let error where error.isPermissionDenied || error.isGone {
            let giveUp = pending[path] ?? now.advanced(by: Self.settleTime)
            if now >= giveUp {
                pending[path] = nil
                if !error.isGone { logger.error("input: cannot take new device \(error)") }
            } else {
                pending[path] = giveUp
            }
        } catch {
            pending[path] = nil
            logger.error("input: cannot take new device \(error)")
        }
    }

    private func handleDirectoryChanges(now: ContinuousClock.Instant) {
        guard let watcher else { return }
        for change in watcher.readChanges() {
            switch change {
            case .created(let name), .attributesChanged(let name):
                guard DeviceDirectoryWatcher.isEventNode(name) else { continue }
                tryNewNode(path: directory + "/" + name, now: now)
            case .deleted(let name):
                pending[directory + "/" + name] = nil
                remove(path: directory + "/" + name, reason: "removed")
            case .overflowed:
                let names = (try? DeviceDirectoryWatcher.eventNodes(in: directory)) ?? []
                for name in names where !devices.contains(where: { $0.device.path == directory + "/" + name }) {
                    tryNewNode(path: directory + "/" + name, now: now)
                }
            }
        }
    }

    private func readDevice(at index: Int) {
        let grabbed = devices[index]
        let (outcome, resyncs) = grabbed.device.readEvents { event in
            guard event.type == UInt16(EV_KEY), event.value != 2, grabbed.exitKeys.contains(KeyCode(event.code)) else {
                return
            }
            onButton(ButtonEvent(device: grabbed.device.label, key: KeyCode(event.code), isPressed: event.value != 0))
        }
        if resyncs > 0 {
            logger.info("input: \(grabbed.device.label) overflowed (SYN_DROPPED): resynced its state \(resyncs)x")
        }
        if outcome == .limitReached {
            backlog.insert(grabbed.device.path)
        } else {
            backlog.remove(grabbed.device.path)
        }
        if case .failed(let error) = outcome {
            if !error.isGone { logger.error("input: reading \(error)") }
            remove(path: grabbed.device.path, reason: error.isGone ? "device removed" : "read failed")
        }
    }

    private func closeAll() {
        while let last = devices.popLast() {
            logger.debug("input: released \(last.device.label)")
        }
        pending.removeAll()
        backlog.removeAll()
        watcher = nil
    }

    // MARK: Thread

    private func spawnThread() throws(InputError) {
        do {
            let started = try PollLoop(name: "input", logger: logger, client: self)
            loop.withLock { $0 = started }
        } catch {
            throw InputError(operation: "pthread_create", path: directory, code: error.code)
        }
    }
}

extension InputLoop: PollLoopClient {
    /// Before each wait: the watcher and every device; while a new node is settling, at most
    /// until its next retry; with a backlog, no wait at all.
    func nextWait() -> PollWait {
        var descriptors = watcher.map { [($0.fileDescriptor, PollEvents.readable)] } ?? []
        descriptors += devices.map { ($0.device.fileDescriptor, .readable) }
        let timeout: Duration? = !backlog.isEmpty ? .zero : pending.isEmpty ? nil : Self.retryInterval
        return PollWait(descriptors, timeout: timeout)
    }

    /// Reads the ready devices, then the watcher's news, then retries the settling nodes.
    func handle(_ ready: [PollEvents]) -> PollNext {
        let firstDevice = watcher == nil ? 0 : 1
        let now = ContinuousClock.now
        // Devices first (indices are only valid until the list changes), newest first.
        let readable = (firstDevice..<ready.count).map { $0 - firstDevice }.filter {
            !ready[firstDevice + $0].isEmpty || backlog.contains(devices[$0].device.path)
        }
        for index in readable.reversed() { readDevice(at: index) }
        if firstDevice == 1, !ready[0].isEmpty { handleDirectoryChanges(now: now) }
        for path in pending.keys.sorted() { tryNewNode(path: path, now: now) }
        return .wait
    }
}

extension Duration {
    /// Whole milliseconds.
    var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
    /// Seconds as a short decimal (`1.0`, `0.25`).
    var secondsText: String {
        let ms = wholeMilliseconds
        var fraction = String(ms % 1000).leftPadded(to: 3)
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(ms / 1000).\(fraction)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
