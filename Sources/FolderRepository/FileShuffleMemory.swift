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
        let bytes: [UInt8]
        do throws(StateFileProblem) {
            bytes = try readStateFile(file, limit: Self.maximumFileSize)
        } catch {
            if !error.isMissing { logger.warning("ignoring the shuffle state \(file): \(error)") }
            return nil
        }
        switch parse(bytes) {
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

    /// The largest state file read (16 MiB: a round of 100,000 photos with 160-byte paths). A
    /// larger one is not a state this program wrote; it is ignored with a log line, so a
    /// hostile file cannot make the start read hundreds of megabytes.
    public static let maximumFileSize = 16 * 1024 * 1024

    /// Why a state file was not taken.
    struct Problem: Error, Equatable {
        var reason: String
    }

    func format(_ snapshot: ShuffleSnapshot) -> [UInt8] {
        var out = Array(Self.header.utf8) + Array("\nfolder ".utf8) + escape(Array(folder.utf8)) + [0x0A]
        func line(_ key: String, _ id: PhotoID) {
            out += Array(key.utf8) + [0x20] + encode(id) + [0x0A]
        }
        if let last = snapshot.last { line("last", last) }
        for id in snapshot.remaining { line("remaining", id) }
        for id in snapshot.shown { line("shown", id) }
        out += Array("end \(snapshot.remaining.count + snapshot.shown.count)\n".utf8)
        return out
    }

    func parse(_ bytes: [UInt8]) -> Result<ShuffleSnapshot, Problem> {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.first.map({ $0.elementsEqual(Self.header.utf8) }) == true else {
            return .failure(Problem(reason: "not a babyalbum shuffle state of version 1"))
        }
        guard lines.last?.isEmpty == true else { return .failure(Problem(reason: "the file is cut short")) }
        lines.removeLast()
        var snapshot = ShuffleSnapshot(remaining: [])
        var foundFolder: [UInt8]?
        var ended = false
        for line in lines.dropFirst() {
            guard !ended else { return .failure(Problem(reason: "text after the end line")) }
            guard let space = line.firstIndex(of: 0x20) else {
                return .failure(Problem(reason: "a line without a value: \(PhotoID.escaped(line.prefix(40)))"))
            }
            let value = line[(space + 1)...]
            switch String(decoding: line[..<space], as: UTF8.self) {
            case "folder": foundFolder = unescape(value)
            case "last": snapshot.last = decode(value)
            case "remaining": snapshot.remaining.append(decode(value))
            case "shown": snapshot.shown.append(decode(value))
            case "end":
                guard Int(String(decoding: value, as: UTF8.self)) == snapshot.remaining.count + snapshot.shown.count
                else { return .failure(Problem(reason: "the entry count does not match")) }
                ended = true
            default: return .failure(Problem(reason: "an unknown line: \(PhotoID.escaped(line.prefix(40)))"))
            }
        }
        guard ended else { return .failure(Problem(reason: "the file is cut short")) }
        let found = foundFolder.map { String(decoding: $0, as: UTF8.self) }
        guard let found, found == folder || resolved(found) == resolved(folder) else {
            let name = foundFolder.map(PhotoID.escaped) ?? "none"
            return .failure(Problem(reason: "it belongs to another photo folder (\(name))"))
        }
        return .success(snapshot)
    }

    /// A photo id as stored: relative to the folder when inside it.
    private func encode(_ id: PhotoID) -> [UInt8] {
        let prefix = Array((folder == "/" ? "/" : folder + "/").utf8)
        return escape(id.bytes.starts(with: prefix) ? id.bytes[prefix.count...] : id.bytes[...])
    }

    private func decode(_ stored: ArraySlice<UInt8>) -> PhotoID {
        let id = unescape(stored)
        return id.first == UInt8(ascii: "/") ? PhotoID(bytes: id) : PhotoID(bytes: joinPath(Array(folder.utf8), id))
    }

    /// Control bytes (a newline would break the line format) and the escape character become
    /// `%XX`; every other byte, UTF-8 or not, is stored as it is.
    private func escape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return out
    }

    private func unescape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let byte = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(byte)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The canonical path (`realpath`), so `photos` and `/home/me/photos` are the same folder.
    private func resolved(_ path: String) -> String? { resolvedPath(path) }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

// MARK: Files

/// Whether `path` is a folder this process may create files in (`access(W_OK | X_OK)`).
private func isWritableDirectory(_ path: String) -> Bool {
    guard let status = try? FileStatus(path: path), status.kind == .directory else { return false }
    return access(path, W_OK | X_OK) == 0
}

/// Why the state file was not read.
struct StateFileProblem: Error, CustomStringConvertible {
    /// The failed call, when a call failed.
    var failure: FolderError?
    /// What else was wrong (not a regular file, too big).
    var reason: String

    /// Whether there is no state file (the first start).
    var isMissing: Bool { failure?.isMissing ?? false }

    var description: String { failure.map { "\($0)" } ?? reason }
}

/// Reads the state file whole, safely: opened with `O_NONBLOCK` (a FIFO put there cannot hang
/// the start), then `fstat` on the descriptor refuses anything but a regular file, and a file
/// larger than `limit` is refused before a byte of it is read.
func readStateFile(_ path: String, limit: Int) throws(StateFileProblem) -> [UInt8] {
    let fd: Int32
    do throws(FolderError) {
        fd = try valueOrErrno("open", path: path) { open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
    } catch {
        throw StateFileProblem(failure: error, reason: "")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
        throw StateFileProblem(failure: FolderError(operation: "fstat", path: path, code: errno), reason: "")
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw StateFileProblem(reason: "not a regular file") }
    guard status.st_size <= limit else {
        throw StateFileProblem(reason: "\(status.st_size) bytes, more than a state file may have (\(limit))")
    }
    // One byte more than its size, to notice a file that grows while it is read.
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var filled = 0
    while filled < bytes.count {
        let count: Int
        do throws(FolderError) {
            count = try valueOrErrno("read", path: path) {
                bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            }
        } catch {
            throw StateFileProblem(failure: error, reason: "")
        }
        if count == 0 { break }
        filled += count
    }
    guard filled <= Int(status.st_size) else { throw StateFileProblem(reason: "it grew while it was read") }
    bytes.removeSubrange(filled...)
    return bytes
}

/// Replaces `path` atomically: writes `path.tmp`, `fsync`s it, renames it over `path`, then
/// `fsync`s the folder so the rename itself survives a power cut.
func replaceFile(_ path: String, with bytes: [UInt8]) throws(FolderError) {
    let temporary = path + ".tmp"
    let fd = try valueOrErrno("open", path: temporary) {
        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }
    do throws(FolderError) {
        var bytes = bytes
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
