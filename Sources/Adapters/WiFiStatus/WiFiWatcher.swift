import LinuxInterfaces

/// Follows wpa_supplicant on one interface and says each change of ``WiFiState`` once: a line
/// to `say` (the journal) and the state file `doctor` reads. The slideshow never waits for it.
/// When the supplicant is not there (yet), or goes, it tries again every ``retry``.
public struct WiFiWatcher {
    /// The interface's control socket, for example `/run/wpa_supplicant/wlan0`.
    public let remote: String
    /// Where this watcher's own socket is bound.
    public let local: String
    /// The state file, for `babyalbum doctor`.
    public let statusFile: String
    /// How long to wait before trying the supplicant again.
    public let retry: Duration
    private let say: (String) -> Void

    /// The state file on the card.
    public static let defaultStatusFile = "/run/babyalbum-wifi"

    /// Creates a watcher.
    public init(
        remote: String, local: String, statusFile: String = defaultStatusFile, retry: Duration = .seconds(2),
        say: @escaping (String) -> Void
    ) {
        self.remote = remote
        self.local = local
        self.statusFile = statusFile
        self.retry = retry
        self.say = say
    }

    /// Runs until the process ends.
    public func run() -> Never {
        var last: WiFiState?
        var lastFailure = ""
        while true {
            do throws(SystemCallFailure) {
                try follow(&last)
            } catch {
                if error.description != lastFailure { say("Wi-Fi: waiting for wpa_supplicant (\(error))") }
                lastFailure = error.description
            }
            sleepThread(for: retry)
        }
    }

    /// One connection to the supplicant: its state now, then its events until it goes.
    private func follow(_ last: inout WiFiState?) throws(SystemCallFailure) {
        let control = try SupplicantControl(remote: remote, local: local)
        guard try control.request("ATTACH").hasPrefix("OK") else {
            throw .protocolError("ATTACH refused", path: remote)
        }
        let network = WiFiState.networkName(fromReply: try control.request("GET_NETWORK 0 ssid"))
        if try control.request("STATUS").contains("wpa_state=COMPLETED") {
            report(.connected(network: network), last: &last)
        }
        while true {
            guard let event = try control.receive(timeout: 10_000) else {
                guard try control.request("PING").hasPrefix("PONG") else { return }
                continue
            }
            if let state = WiFiState(event: event, network: network) { report(state, last: &last) }
        }
    }

    private func report(_ state: WiFiState, last: inout WiFiState?) {
        guard state != last else { return }
        last = state
        say(state.line)
        writeStatus(state)
    }

    /// Writes the state file through a temporary file and a rename (readable by everyone: it
    /// holds the network's name and the state, never the password).
    private func writeStatus(_ state: WiFiState) {
        let temporary = statusFile + ".new"
        do throws(SystemCallFailure) {
            let file = try FileDescriptor(
                opening: temporary, .writeOnly, options: [.create, .truncate], permissions: 0o644)
            try file.write(Array(state.fileText.utf8))
            try file.close()
            try renameFile(temporary, to: statusFile)
        } catch {
            say("Wi-Fi: cannot write \(statusFile): \(error)")
        }
    }
}
