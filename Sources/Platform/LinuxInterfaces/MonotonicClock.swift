#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The clock systemd stamps its notifications with (`CLOCK_MONOTONIC`): it never jumps and
/// stops while the system is suspended.
public enum MonotonicClock {
    /// Now, in microseconds since an unspecified point (`clock_gettime(CLOCK_MONOTONIC)`).
    public static var nowMicroseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
