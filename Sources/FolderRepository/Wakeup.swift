import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A self-pipe (`pipe`, both ends `FD_CLOEXEC`) that wakes the watcher thread out of `poll` when
/// it must stop (Glibc's module exports neither `eventfd` nor `pipe2`). Owns both ends.
final class Wakeup: Sendable {
    /// The read end, for `poll`.
    let fileDescriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    init() throws(FolderError) {
        var ends: [Int32] = [-1, -1]
        _ = try valueOrErrno("pipe", path: "wake-up pipe") { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(writeEnd)
        close(fileDescriptor)
    }

    /// Makes the read end readable.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
