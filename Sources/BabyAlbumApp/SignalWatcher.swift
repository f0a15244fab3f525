import Dispatch
import Foundation

/// Turns SIGTERM/SIGINT into calls on a queue, so shutdown runs the normal teardown path.
///
/// The signals are unblocked once they are watched: a process started again with new settings
/// (`execv` on SIGHUP) inherits SIGHUP blocked, so a second SIGHUP in the re-exec window waits,
/// pending, until this watcher takes it, instead of killing the frame.
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
        var watched = sigset_t()
        sigemptyset(&watched)
        for number in signals { sigaddset(&watched, number) }
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
