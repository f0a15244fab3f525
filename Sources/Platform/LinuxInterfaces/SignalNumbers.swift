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
    /// The four the slideshow watches: the first three stop it, `hangUp` re-reads.
    public static let watched = [terminate, interrupt, quit, hangUp]
}
