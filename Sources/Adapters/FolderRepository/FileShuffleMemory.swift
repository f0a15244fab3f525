import AlbumDomain
import LinuxInterfaces
import Logging
import Synchronization

/// A ``ShuffleMemory`` in a small versioned text file and an append-only journal beside it.
///
/// Showing a photo costs O(1), not O(library): the photos shown are appended to the journal
/// (``ShuffleJournal``, one short line each), and the state file is rewritten only when the
/// round is not the saved one with photos shown (a new round, photos added or removed) or the
/// journal is damaged. Writes are batched: a save within ``saveInterval`` of the last write is
/// held, and written by the next save after it, by ``flush()``, or when the process exits
/// (`exit`, or returning from `main`). **A power cut loses at most the photos shown in the last
/// ``saveInterval`` (5 minutes by default): they may be shown again in the round.**
///
/// The state file is replaced atomically: the snapshot goes to a temporary file beside it,
/// which is `fsync`ed and renamed over the old one, then the folder is `fsync`ed; so a power cut
/// leaves the old snapshot or the new one, never a mix. The journal names the state file it
/// continues by checksum, so a journal from before the last rewrite is ignored, and only its
/// whole lines count. A temporary file left by a crash is removed at the next ``load()``; at
/// exit a save in progress is finished first, so none is left.
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
    /// The journal of photos shown since the state file was written (the state file's name
    /// with `.journal`).
    public let journal: String
    /// The photo folder the snapshot belongs to.
    public let folder: String
    /// The shortest time between two writes; saves in between are held (the longest time of
    /// shown photos a power cut may lose).
    public let saveInterval: Duration
    private let logger: Logger
    private let state = Mutex(SaveState())

    private struct SaveState {
        /// What the files hold (state file plus journal).
        var saved: ShuffleSnapshot?
        /// The journal's first line, which names the state file by its checksum (the state
        /// file's bytes are not kept: 730 KB for a round of 10,000 photos).
        var journalHeader: [UInt8] = []
        /// Whether the journal may be appended to (it is whole and continues the state file).
        var journalUsable = false
        /// The newest snapshot, written or held.
        var latest: ShuffleSnapshot?
        var lastWrite: ContinuousClock.Instant?
        var failing = false
        /// Set at exit: no more writes.
        var closed = false
        /// Bytes written to the state file and the journal, for the wear figures.
        var bytesWritten = 0
    }

    /// Creates a memory kept in `file` for the photos of `folder`, written at most once per
    /// `saveInterval` (plus once at exit).
    public init(
        file: String, folder: String, saveInterval: Duration = .seconds(300),
        logger: Logger = Logger(label: "babyalbum.shuffle")
    ) {
        self.file = file
        self.journal = file + ".journal"
        self.folder = Self.trimmed(folder)
        self.saveInterval = saveInterval
        self.logger = logger
        ExitFlush.register(self)
    }

    deinit { ExitFlush.unregister(self) }

    /// The memory for `folder` in `stateDirectory` (`shuffle.state`, or the hidden
    /// `.babyalbum-shuffle` when the state directory is the photo folder itself), or `nil` when
    /// there is no state directory.
    public convenience init?(
        stateDirectory: String?, folder: String, saveInterval: Duration = .seconds(300),
        logger: Logger = Logger(label: "babyalbum.shuffle")
    ) {
        guard let stateDirectory else { return nil }
        let name = Self.trimmed(stateDirectory) == Self.trimmed(folder) ? ".babyalbum-shuffle" : "shuffle.state"
        self.init(
            file: joinPath(stateDirectory, name), folder: folder, saveInterval: saveInterval, logger: logger)
    }

    /// The default state directory: `/var/lib/babyalbum` when it exists and is writable (an
    /// installed frame), else the photo folder when it is writable, else `nil` (no memory).
    public static func defaultStateDirectory(photos: String, installed: String = "/var/lib/babyalbum") -> String? {
        for candidate in [installed, photos] where isWritableDirectory(candidate) {
            return candidate
        }
        return nil
    }

    /// Bytes written to the state file and the journal by this memory so far.
    public var bytesWritten: Int { state.withLock { $0.bytesWritten } }

    // MARK: ShuffleMemory

    public func load() -> ShuffleSnapshot? {
        // A temporary file is only ever left by a crash or a power cut mid-write.
        try? removeFile(temporaryName(for: file))
        let bytes: [UInt8]
        do throws(StateFileProblem) {
            bytes = try readStateFile(file, limit: Self.maximumFileSize)
        } catch {
            if !error.isMissing { logger.warning("ignoring the shuffle state \(file): \(error)") }
            return nil
        }
        switch parse(bytes) {
        case .success(let base):
            let (shown, whole) = readJournal(base: bytes)
            let snapshot = ShuffleJournal.applying(shown, to: base)
            state.withLock {
                $0.saved = snapshot
                $0.journalHeader = ShuffleJournal.headerLine(for: bytes)
                $0.journalUsable = whole
            }
            return snapshot
        case .failure(let problem):
            logger.warning("ignoring the shuffle state \(file): \(problem.reason)")
            return nil
        }
    }

    public func save(_ snapshot: ShuffleSnapshot) {
        state.withLock { state in
            guard !state.closed else { return }
            state.latest = snapshot
            if let last = state.lastWrite, last.duration(to: .now) < saveInterval { return }
            write(&state)
        }
    }

    /// Writes the newest snapshot now, if it is not written yet.
    public func flush() {
        state.withLock { write(&$0) }
    }

    /// Writes what is held and stops writing: called at exit, after a save in progress ends.
    func close() {
        state.withLock { state in
            write(&state)
            state.closed = true
        }
    }

    // MARK: Writing

    private func write(_ state: inout SaveState) {
        guard !state.closed, let latest = state.latest, latest != state.saved else { return }
        state.lastWrite = .now
        do throws(FolderError) {
            if let saved = state.saved, state.journalUsable, let shown = ShuffleJournal.shownSince(saved, to: latest) {
                var lines: [UInt8] = []
                for id in shown { lines += Array("shown ".utf8) + encode(id) + [0x0A] }
                state.bytesWritten += try appendToFile(
                    journal, lines, header: state.journalHeader)
            } else {
                state.journalUsable = false
                let bytes = format(latest)
                state.bytesWritten += try replaceFile(file, with: bytes)
                state.journalHeader = ShuffleJournal.headerLine(for: bytes)
                try removeFile(journal)
                state.journalUsable = true
            }
            state.saved = latest
            if state.failing { logger.notice("saving the shuffle state to \(file) works again") }
            state.failing = false
        } catch {
            if !state.failing { logger.warning("cannot save the shuffle state: \(error)") }
            state.failing = true
        }
    }

    private func readJournal(base: [UInt8]) -> (shown: [PhotoID], whole: Bool) {
        let bytes: [UInt8]
        do throws(StateFileProblem) {
            bytes = try readStateFile(journal, limit: Self.maximumFileSize)
        } catch {
            if !error.isMissing { logger.warning("ignoring the shuffle journal \(journal): \(error)") }
            return ([], error.isMissing)
        }
        let entries = ShuffleJournal.entries(bytes, base: base, decode: decode)
        if !entries.whole {
            logger.notice("the shuffle journal \(journal) is cut short or stale; \(entries.shown.count) photos taken")
        }
        return entries
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
        // Sized up front (escapes aside): growing by doubling held one and a half copies of a
        // 10,000-photo file at once.
        let ids = snapshot.remaining + snapshot.shown
        out.reserveCapacity(out.count + 64 + ids.reduce(0) { $0 + $1.bytes.count + 11 })
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
