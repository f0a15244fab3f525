import CLinuxInterfaces
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Signal handling, one way, in one place: held from start-up (HeldSignals), then watched on a
// queue (SignalWatcher); otherwise only ignored (SignalDisposition); the restart's mask
// (ProcessImage.restart).

/// Stop and reload signals held from the first moment of the slideshow until its signal watcher
/// takes over (`sigaction` with a handler that only notes the arrival). Without it, a SIGHUP or
/// SIGTERM in the seconds spent opening the display and grabbing the inputs (a tty hang-up while
/// systemd hands tty1 over from the login prompt, a `systemctl reload` during a package upgrade)
/// ends the process with the signal's default action, before it has told systemd it is ready.
public enum HeldSignals {
    /// Holds `signals` until ``takeArrived(_:)`` is asked and their watcher is in place.
    public static func hold(_ signals: [Int32]) {
        for number in signals { _ = CLinuxInterfaces_hold_signal(number) }
    }

    /// Whether `signal` arrived while held (each arrival is reported once).
    public static func takeArrived(_ signal: Int32) -> Bool {
        CLinuxInterfaces_take_held_signal(signal) != 0
    }
}

/// Turns signals (the slideshow's: ``SignalNumber/watched``) into calls on a queue of its own, so
/// that shutdown runs the normal teardown path; signals held since start-up (``HeldSignals``) are
/// handled once it is in place, in order. Each signal is ignored first (``SignalDisposition``):
/// libdispatch reads it through its own source, never a handler.
public final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    /// Watches `signals`, calling `handler` with each one's number on the watcher's queue.
    public init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "babyalbum.signals")
        sources = signals.map { number in
            SignalDisposition.ignore(number)
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

    /// Stops watching (the signals stay ignored).
    public func cancel() {
        for source in sources { source.cancel() }
    }
}

/// The one way the program sets a signal's disposition outside ``HeldSignals`` and
/// ``SignalWatcher``: ignored (`signal(2)` with `SIG_IGN`). An ignored disposition survives `exec`.
public enum SignalDisposition {
    /// Ignores `number` from now on (`signal(number, SIG_IGN)`).
    public static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }
}

/// The process's own image: replaced by a fresh run of the same executable, or ended.
public enum ProcessImage {
    /// This process's id (`getpid(2)`).
    public static var id: Int32 { getpid() }

    /// The value of the environment variable `name` (`getenv(3)`); `nil` when it is not set.
    public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Replaces this process with a fresh run of its own executable (`execv` of `/proc/self/exe`)
    /// with `arguments` (the program's name first). Returns only if `exec` failed: the failure.
    ///
    /// SIGHUP is ignored (and blocked) across the `exec`: an ignored disposition survives it, so a
    /// second SIGHUP in the window before the new process watches it again (two `systemctl
    /// reload` in a row) is dropped instead of killing the process with the default action.
    /// (Blocking alone is not enough: the main thread of an async Swift program waits in
    /// libdispatch's `sigsuspend` with an empty mask. The new process must not unblock signals
    /// itself either: libdispatch reads them through a signalfd, which only sees signals that
    /// every thread blocks.) After a failure SIGHUP is unblocked again and stays ignored.
    public static func restart(arguments: [String]) -> SystemCallFailure {
        var hangUp = sigset_t()
        sigemptyset(&hangUp)
        sigaddset(&hangUp, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &hangUp, nil)
        SignalDisposition.ignore(SIGHUP)
        var pointers = arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &pointers)
        let failure = SystemCallFailure(operation: "execv", path: "/proc/self/exe", code: errno)
        pthread_sigmask(SIG_UNBLOCK, &hangUp, nil)
        for pointer in pointers { free(pointer) }
        return failure
    }

    /// Ends the process with `status` (`exit(3)`: the `atexit` handlers run, streams are flushed).
    public static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Musl.exit(status)
        #endif
    }
}
