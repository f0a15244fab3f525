#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calls on another process this one started: a connected socket pair for it, its command
/// line as C strings for a spawn, a signal, and what its wait status says. (The decode sandbox
/// spawns and reaps its workers in C, `CSandbox`, where the confinement is.)
public enum ChildProcess {
    /// Sends `signal` to the process `pid` (`kill(2)`); `false` when it is gone or not ours.
    @discardableResult
    public static func send(_ signal: Int32, to pid: Int32) -> Bool { Glibc.kill(pid, signal) == 0 }

    /// The signal that ended a process, from its `waitpid` status (`WIFSIGNALED`, `WTERMSIG`);
    /// `nil` when it exited.
    public static func endingSignal(ofWaitStatus status: Int32) -> Int32? {
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f ? signal : nil
    }

    /// Calls `body` with `arguments` as a C `argv` (each string copied, then a NULL), freed after.
    public static func withArgv<Result>(
        _ arguments: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> Result
    ) rethrows -> Result {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        return try body(argv)
    }
}
