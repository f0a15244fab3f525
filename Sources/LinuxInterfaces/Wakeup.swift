#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A self-pipe (`pipe`, both ends `FD_CLOEXEC` and `O_NONBLOCK`) that wakes a thread out of
/// `poll` when it must stop (Glibc's module exports neither `eventfd` nor `pipe2`). Owns both
/// ends.
public final class Wakeup: Sendable {
    /// The read end, for `poll`.
    public let fileDescriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    public init() throws(SystemCallFailure) {
        var ends: [Int32] = [-1, -1]
        _ = try valueOrErrno("pipe", path: "wake-up pipe") { pipe(&ends) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(writeEnd)
        close(fileDescriptor)
    }

    /// Makes the read end readable (never blocks: one pending byte is enough).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
