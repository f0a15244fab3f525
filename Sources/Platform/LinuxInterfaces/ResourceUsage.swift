#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `getrusage(2)` says of this process or of its reaped children: the parts the benchmarks
/// print. The corresponding C type is `struct rusage`.
public struct ResourceUsage: Sendable, Equatable {
    /// Whose usage.
    public enum Who: Sendable {
        /// This process (`RUSAGE_SELF`).
        case this
        /// Its children that have been waited for (`RUSAGE_CHILDREN`).
        case reapedChildren
    }

    /// `ru_maxrss`: the peak resident memory, in kB (of the largest child, for children).
    public var peakResidentKilobytes: Int
    /// `ru_utime` plus `ru_stime`: the CPU time, user and system, in milliseconds.
    public var cpuMilliseconds: Double

    /// The usage of `who` now.
    public init(of who: Who) {
        var usage = rusage()
        getrusage(who == .this ? Int32(RUSAGE_SELF.rawValue) : Int32(RUSAGE_CHILDREN.rawValue), &usage)
        peakResidentKilobytes = Int(usage.ru_maxrss)
        let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
        cpuMilliseconds = user + Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
    }

    /// The CPU time the calling thread has used, in milliseconds (`CLOCK_THREAD_CPUTIME_ID`).
    public static var threadCPUMilliseconds: Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }

    /// Blocks the calling thread for `duration` (`nanosleep`, resumed after a signal), off any
    /// clock a test controls: for the benchmarks' untimed pauses.
    public static func pauseThread(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
