import CLinuxInterfaces

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
