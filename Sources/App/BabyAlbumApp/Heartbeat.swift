import Synchronization
import SystemdNotify

/// Tells systemd the slideshow is alive, but only while it really is: the presenting loop is
/// not stuck inside a draw, and, while photos are showing, ticks keep arriving. A hung
/// slideshow stops pinging and systemd restarts it (`WatchdogSec=`). Without systemd, nothing.
final class Heartbeat: Sendable {
    private struct Storage {
        var drawingSince: ContinuousClock.Instant?
        var lastTick = ContinuousClock.now
        var showingPhotos = false
    }

    private let notifier: SystemdNotifier
    private let interval: Duration
    private let storage = Mutex(Storage())

    /// Creates a heartbeat; `interval` is the slideshow interval.
    init(notifier: SystemdNotifier, interval: Duration) {
        self.notifier = notifier
        self.interval = interval
    }

    /// The presenting loop starts drawing.
    func drawingStarted() {
        let now = ContinuousClock.now
        storage.withLock { $0.drawingSince = now }
    }

    /// The presenting loop finished drawing; `photo` says whether a photo is on screen.
    func drawingFinished(photo: Bool) {
        storage.withLock {
            $0.drawingSince = nil
            $0.showingPhotos = photo
        }
    }

    /// A tick arrived.
    func tick() {
        let now = ContinuousClock.now
        storage.withLock { $0.lastTick = now }
    }

    /// Whether the slideshow looks alive at `now`, given the watchdog period `limit`.
    func isAlive(now: ContinuousClock.Instant, limit: Duration) -> Bool {
        storage.withLock { storage in
            if let since = storage.drawingSince, now - since > limit { return false }
            if storage.showingPhotos, now - storage.lastTick > interval * 2 + limit { return false }
            return true
        }
    }

    /// Pings the watchdog at half its period while alive, until cancelled.
    func run() async {
        guard let period = notifier.watchdogInterval, let pingEvery = notifier.watchdogPingInterval else { return }
        while !Task.isCancelled {
            if isAlive(now: .now, limit: period) { try? notifier.watchdogPing() }
            do { try await Task.sleep(for: pingEvery) } catch { return }
        }
    }
}
