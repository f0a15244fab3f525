#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The numbers of the signals the frame watches, named, so that callers need no C library.
public enum SignalNumber {
    /// `SIGTERM`: systemd's stop.
    public static let terminate = SIGTERM
    /// `SIGINT`: Ctrl+C.
    public static let interrupt = SIGINT
    /// `SIGQUIT`: Ctrl+\.
    public static let quit = SIGQUIT
    /// `SIGHUP`: `systemctl reload`, read the settings and photos afresh.
    public static let hangUp = SIGHUP
    /// `SIGPIPE`: a write to a closed pipe or socket; ignored, so that the write fails with `EPIPE`.
    public static let brokenPipe = SIGPIPE
    /// `SIGKILL`: a decode worker stopped once it answered, or over its deadline.
    public static let kill = SIGKILL
    /// `SIGXCPU`: a child over its `RLIMIT_CPU`.
    public static let cpuTimeExceeded = SIGXCPU
    /// `SIGABRT`: a child that aborted (a C++ allocation that failed under `RLIMIT_AS`).
    public static let abort = SIGABRT
    /// The four the slideshow watches: the first three stop it, `hangUp` re-reads.
    public static let watched = [terminate, interrupt, quit, hangUp]
}
