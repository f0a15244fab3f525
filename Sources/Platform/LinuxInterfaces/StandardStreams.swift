import CLinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes `text` whole to the file descriptor `descriptor` (`STDOUT_FILENO`, `STDERR_FILENO`),
/// retrying short writes and `EINTR`; a failed write (a closed pipe) is dropped, as `print` does.
public func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { buffer in
            write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return
        }
    }
}

/// Writes `text` whole to standard output, as ``writeAll(_:to:)`` does.
public func writeToStandardOutput(_ text: String) {
    writeAll(text, to: STDOUT_FILENO)
}

/// Writes `text` whole to standard error, as ``writeAll(_:to:)`` does.
public func writeToStandardError(_ text: String) {
    writeAll(text, to: STDERR_FILENO)
}

/// Runs the program at `path` with `arguments` (not through a shell), its standard error sent to
/// `/dev/null`, and returns what it printed on standard output (at most `limit` bytes are kept)
/// once it has exited; `nil` when it cannot be started.
public func programOutput(_ path: String, arguments: [String], limit: Int = 1 << 20) -> [UInt8]? {
    var fds: [Int32] = [-1, -1]
    guard CLinuxInterfaces_pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let readEnd = FileDescriptor(adopting: fds[0], path: path)
    var writeEnd = FileDescriptor(adopting: fds[1], path: path)
    let started = posix_spawn(&pid, path, &actions, nil, argv, environ)
    writeEnd.closeNow()  // the child holds its copy: the read ends when it exits
    guard started == 0 else { return nil }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        guard let count = try? readEnd.read(into: &chunk), count > 0 else { break }
        if output.count < limit { output.append(contentsOf: chunk[0..<min(count, limit - output.count)]) }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return output
}

extension StringProtocol {
    /// The text without the spaces, tabs and line ends at either end (Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without Foundation).
    public func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
