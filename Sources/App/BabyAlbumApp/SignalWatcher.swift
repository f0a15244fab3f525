import Dispatch
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGTERM/SIGINT/SIGQUIT/SIGHUP into calls on a queue, so shutdown runs the normal teardown
/// path; signals held since start-up (``HeldSignals``) are delivered once it is in place.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "babyalbum.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
        // What arrived while the slideshow started (``HeldSignals``) is handled now, in order.
        for number in signals where HeldSignals.takeArrived(number) {
            queue.async { handler(number) }
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
