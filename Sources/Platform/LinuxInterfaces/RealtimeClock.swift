#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The wall clock (`CLOCK_REALTIME`), which files' modification times are written in; unlike a
/// `ContinuousClock` it can jump (a board without a real-time clock learning the date).
public enum RealtimeClock {
    /// Now, in nanoseconds since the epoch (`clock_gettime(CLOCK_REALTIME)`).
    public static var nowNanoseconds: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
