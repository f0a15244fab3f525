import Synchronization

/// Measures how long each tick takes to reach the screen: from the interval running out to the
/// view returning from drawing the new photo.
final class PresentationStatistics: Sendable {
    private struct Storage {
        var pendingTick: ContinuousClock.Instant?
        var latencies: [Duration] = []
    }

    private let storage = Mutex(Storage())

    /// Notes that the interval ran out now.
    func intervalElapsed() {
        let now = ContinuousClock.now
        storage.withLock { $0.pendingTick = now }
    }

    /// Notes that a new photo is on screen now.
    func photoPresented() {
        let now = ContinuousClock.now
        storage.withLock { storage in
            if let tick = storage.pendingTick { storage.latencies.append(now - tick) }
            storage.pendingTick = nil
        }
    }

    /// `n`, p50 and p99 of the tick-to-presented latencies, in milliseconds.
    var summary: String {
        let sorted = storage.withLock { $0.latencies }.sorted()
        guard !sorted.isEmpty else { return "tick to presented: no ticks measured" }
        func percentile(_ p: Double) -> String {
            let duration = sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
            let milliseconds =
                Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            return String(Int((milliseconds * 1000).rounded())) + " us"
        }
        return
            "tick to presented: n=\(sorted.count) p50=\(percentile(0.5)) p99=\(percentile(0.99)) max=\(percentile(1))"
    }
}
