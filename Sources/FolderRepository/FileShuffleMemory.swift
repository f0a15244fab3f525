import AlbumDomain
import LinuxInterfaces
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A ``ShuffleMemory`` in a small versioned text file, replaced atomically on every save: the
/// snapshot goes to a temporary file beside it, which is `fsync`ed and renamed over the old one
/// (then the folder is `fsync`ed), so a power cut leaves the old snapshot or the new one, never
/// a mix.
///
/// The file names its photo folder; paths inside it are stored relative to it. A file that is
/// corrupt, of another version or of another folder is ignored with a log line. Failing to save
/// (a read-only or full disk) is logged once, never fatal.
///
/// ```
/// babyalbum-shuffle 1
/// folder /srv/photos
/// last 2024/beach.png
/// remaining 2024/cake.png
/// shown 2023/snow.png
/// end 3
/// ```
public final class FileShuffleMemory: ShuffleMemory {
    /// The first line of a state file of this version.
    static let header = "babyalbum-shuffle 1"

    /// The state file.
    public let file: String
    /// The photo folder the snapshot belongs to.
    public let folder: String
    private let logger: Logger
    private let state = Mutex(SaveState())

    private struct SaveState {
        var saved: ShuffleSnapshot?
        var failing = false
    }

    /// Creates a memory kept in `file` for the photos of `folder`.
    public init(file: String, folder: String, logger: Logger = Logger(label: "babyalbum.shuffle")) {
        self.file = file
        self.folder = Self.trimmed(folder)
        self.logger = logger
    }

    /// The memory for `folder` in `stateDirectory` (`shuffle.state`, or the hidden
    /// `.babyalbum-shuffle` when the state directory is the photo folder itself), or `nil` when
    /// there is no state directory.
    public convenience init?(
        stateDirectory: String?, folder: String, logger: Logger = Logger(label: "babyalbum.shuffle")
    ) {
        guard let stateDirectory else { return nil }
        let name = Self.trimmed(stateDirectory) == Self.trimmed(folder) ? ".babyalbum-shuffle" : "shuffle.state"
        self.init(file: joinPath(stateDirectory, name), folder: folder, logger: logger)
    }

    /// The default state directory: `/var/lib/babyalbum` when it exists and is writable (an
    /// installed frame), else the photo folder when it is writable, else `nil` (no memory).
    public static func defaultStateDirectory(photos: String, installed: String = "/var/lib/babyalbum") -> String? {
        for candidate in [installed, photos] where isWritableDirectory(candidate) {
            return candidate
        }
        return nil
    }

    // MARK: ShuffleMemory

    public func load() -> ShuffleSnapshot? {
        let text: String
        do throws(FolderError) {
            text = try readFile(file)
        } catch {
            if !error.isMissing { logger.warning("ignoring the shuffle state: \(error)") }
            return nil
        }
        switch parse(text) {
        case .success(let snapshot):
            state.withLock { $0.saved = snapshot }
            return snapshot
        case .failure(let problem):
            logger.warning("ignoring the shuffle state \(file): \(problem.reason)")
            return nil
        }
    }

    public func save(_ snapshot: ShuffleSnapshot) {
        state.withLock { state in
            guard state.saved != snapshot else { return }
            do throws(FolderError) {
                try replaceFile(file, with: format(snapshot))
                state.saved = snapshot
                if state.failing { logger.notice("saving the shuffle state to \(file) works again") }
                state.failing = false
            } catch {
                if !state.failing { logger.warning("cannot save the shuffle state: \(error)") }
                state.failing = true
            }
        }
    }

    // MARK: Format

    /// Why a state file was not taken.
    struct Problem: Error, Equatable {
        var reason: String
    }

    func format(_ snapshot: ShuffleSnapshot) -> String {
        var lines = [Self.header, "folder \(escape(folder))"]
        if let last = snapshot.last { lines.append("last \(encode(last))") }
        lines += snapshot.remaining.map { "remaining \(encode($0))" }
        lines += snapshot.shown.map { "shown \(encode($0))" }
        lines.append("end \(snapshot.remaining.count + snapshot.shown.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    func parse(_ text: String) -> Result<ShuffleSnapshot, Problem> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == Self.header else {
            return .failure(Problem(reason: "not a babyalbum shuffle state of version 1"))
        }
        guard lines.last == "" else { return .failure(Problem(reason: "the file is cut short")) }
        lines.removeLast()
        var snapshot = ShuffleSnapshot(remaining: [])
        var foundFolder: String?
        var ended = false
        for line in lines.dropFirst() {
            guard !ended else { return .failure(Problem(reason: "text after the end line")) }
            guard let space = line.firstIndex(of: " ") else {
                return .failure(Problem(reason: "a line without a value: \(line.prefix(40))"))
            }
            let key = line[..<space]
            let value = String(line[line.index(after: space)...])
            switch key {
            case "folder": foundFolder = unescape(value)
            case "last": snapshot.last = decode(value)
            case "remaining": snapshot.remaining.append(decode(value))
            case "shown": snapshot.shown.append(decode(value))
            case "end":
                guard Int(value) == snapshot.remaining.count + snapshot.shown.count else {
                    return .failure(Problem(reason: "the entry count does not match"))
                }
                ended = true
            default: return .failure(Problem(reason: "an unknown line: \(line.prefix(40))"))
            }
        }
        guard ended else { return .failure(Problem(reason: "the file is cut short")) }
        guard let foundFolder, foundFolder == folder || resolved(foundFolder) == resolved(folder) else {
            return .failure(Problem(reason: "it belongs to another photo folder (\(foundFolder ?? "none"))"))
        }
        return .success(snapshot)
    }

    /// A photo id as stored: relative to the folder when inside it.
    private func encode(_ id: String) -> String {
        let prefix = folder == "/" ? "/" : folder + "/"
        return escape(id.hasPrefix(prefix) ? String(id.dropFirst(prefix.count)) : id)
    }

    private func decode(_ stored: String) -> String {
        let id = unescape(stored)
        return id.hasPrefix("/") ? id : joinPath(folder, id)
    }

    /// Newlines (and the escape character) in file names would break the line format.
    private func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "%" || $0 == "\n" || $0 == "\r" }) else { return text }
        return text.replacingEvery("%", with: "%25").replacingEvery("\n", with: "%0A").replacingEvery("\r", with: "%0D")
    }

    private func unescape(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return text.replacingEvery("%0A", with: "\n").replacingEvery("%0D", with: "\r").replacingEvery("%25", with: "%")
    }

    /// The canonical path (`realpath`), so `photos` and `/home/me/photos` are the same folder.
    private func resolved(_ path: String) -> String? {
        guard let canonical = realpath(path, nil) else { return nil }
        defer { free(canonical) }
        return String(cString: canonical)
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

extension String {
    fileprivate func replacingEvery(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

// MARK: Files

/// Whether `path` is a folder this process may create files in (`access(W_OK | X_OK)`).
private func isWritableDirectory(_ path: String) -> Bool {
    guard let status = try? FileStatus(path: path), status.kind == .directory else { return false }
    return access(path, W_OK | X_OK) == 0
}

/// Reads a small file whole (`open`, `read`).
func readFile(_ path: String) throws(FolderError) -> String {
    let fd = try valueOrErrno("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = try valueOrErrno("read", path: path) {
            chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
        if count == 0 { break }
        bytes += chunk[..<count]
        guard bytes.count <= 64 * 1024 * 1024 else { throw FolderError(operation: "read", path: path, code: EFBIG) }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Replaces `path` atomically: writes `path.tmp`, `fsync`s it, renames it over `path`, then
/// `fsync`s the folder so the rename itself survives a power cut.
func replaceFile(_ path: String, with text: String) throws(FolderError) {
    let temporary = path + ".tmp"
    let fd = try valueOrErrno("open", path: temporary) {
        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }
    do throws(FolderError) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = try valueOrErrno("write", path: temporary) {
                bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            }
            written += count
        }
        _ = try valueOrErrno("fsync", path: temporary) { fsync(fd) }
    } catch {
        close(fd)
        unlink(temporary)
        throw error
    }
    _ = try valueOrErrno("close", path: temporary, retryOnInterrupt: false) { close(fd) }
    do throws(FolderError) {
        _ = try valueOrErrno("rename", path: path) { rename(temporary, path) }
    } catch {
        unlink(temporary)
        throw error
    }
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
        _ = fsync(directory)
        close(directory)
    }
}
