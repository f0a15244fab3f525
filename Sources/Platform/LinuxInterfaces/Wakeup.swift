import CLinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A self-pipe that wakes a thread out of `poll`: `pipe2` with `O_CLOEXEC | O_NONBLOCK` in one
/// call, so no `fork`+`exec` on another thread can inherit an end. Owns both ends.
public final class Wakeup: Sendable {
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    /// The read end, for `poll`.
    public var fileDescriptor: Int32 { readEnd.rawValue }

    /// Creates the pipe.
    public init() throws(SystemCallFailure) {
        var ends: [Int32] = [-1, -1]
        _ = try valueOrErrno("pipe2", path: "wake-up pipe") { CLinuxInterfaces_pipe2(&ends, O_CLOEXEC | O_NONBLOCK) }
        readEnd = FileDescriptor(adopting: ends[0], path: "wake-up pipe")
        writeEnd = FileDescriptor(adopting: ends[1], path: "wake-up pipe")
    }

    /// Makes the read end readable (never blocks: one pending byte is enough).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd.rawValue, &byte, 1)
    }

    /// Empties the pipe, so that a loop which handles more than one wake-up (rather than
    /// stopping at the first) sleeps again in `poll`.
    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while (try? readEnd.read(into: &bytes)) ?? 0 > 0 {}
    }
}
