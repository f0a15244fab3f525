import AlbumDomain

/// When a photo file is complete enough to show, and which photo lists to publish: the pure
/// part of the folder watcher. No I/O: the driver (``FolderIndex``) reports what it saw, asks
/// which files to look at again, and publishes what ``publication(scanSettled:)`` returns. Time
/// comes from the injected clock, so tests run it on a test clock.
///
/// - A file found by a scan is ready at once when it was last written longer ago than the
///   settle time; otherwise it is ready once it stayed the same for the settle time.
/// - A file created while watching is ready when its writer closes it or it is renamed into
///   place; failing that (a writer that keeps it open) after the quiet time.
/// - A ready file whose signature changes (replaced, or `chmod` made it readable) leaves the
///   published list for one publication, so the album forgets a failure or a stale frame.
/// - While the first scan runs, lists are paced: the first ready photos after the first-list
///   patience, then each time the count doubles, then the full list. After that, every change
///   is published, at most once per minimum publication interval, so a burst of events costs a
///   few lists, not one per file.
struct FolderReadiness<C: Clock> where C.Duration == Duration {
    enum Readiness: Sendable, Equatable { case ready, settling, writing }

    /// Whether a file is in the published list, and as which version.
    enum Published: Sendable, Equatable {
        /// Not in the published list.
        case no
        /// In it, with the signature it has now.
        case current
        /// In it, but changed since (its signature changed after it was published). It stays
        /// changed even if the file returns to exactly the published signature (size, time to
        /// the nanosecond, inode, mode and owner): the photo then leaves the list once, harmlessly.
        case changed
    }

    /// One file, in a table keyed by its path (its id). A byte for ``Published`` instead of the
    /// published signature, a digest of the signature, and the folder here rather than in the
    /// key, keep a slot of the table at 24 bytes (key included), not 104.
    struct Entry: Sendable, Equatable {
        var signature: SignatureDigest {
            didSet { if published == .current, signature != oldValue { published = .changed } }
        }
        var folder: Int32
        var readiness: Readiness
        var published: Published
    }

    /// A file to look at again because its settle or quiet time ran out.
    struct Recheck: Sendable, Equatable {
        var key: FileKey
        var expecting: Readiness
    }

    let clock: C
    let timing: FolderWatchTiming
    private(set) var entries: [[UInt8]: Entry] = [:]
    private var settleQueue = DeadlineQueue<FileKey, C.Instant>()
    private var quietQueue = DeadlineQueue<FileKey, C.Instant>()
    private(set) var readyCount = 0
    private var settlingCount = 0
    private var changed = false
    private var vanished: Set<PhotoID> = []
    private var publishedCount: Int?
    private var firstScanPublished = false
    private var firstScanStart: C.Instant?
    /// When a list was last published (for ``FolderWatchTiming/minimumPublicationInterval``).
    private var lastPublication: C.Instant?

    /// Files whose settle time ends this close together are taken together, so files copied in
    /// one go are published as one list.
    static var settleSlack: Duration { .milliseconds(20) }

    init(clock: C, timing: FolderWatchTiming) {
        self.clock = clock
        self.timing = timing
    }

    /// How many photo files are known (ready or not).
    var fileCount: Int { entries.count }

    /// The folder was opened: its first scan starts now.
    mutating func folderOpened() {
        self = FolderReadiness(clock: clock, timing: timing)
        firstScanStart = clock.now
    }

    /// Whether `key` is being written (an `IN_MODIFY` for it needs no `stat`).
    func isWriting(_ key: FileKey) -> Bool { entries[key.path]?.readiness == .writing }

    /// Whether `key` is known.
    func contains(_ key: FileKey) -> Bool { entries[key.path] != nil }

    /// Takes in what the driver saw of the photo file `key` for `cause`; the photo's id is the
    /// key's path.
    mutating func observe(_ key: FileKey, _ seen: FileObservation, cause: FileCause) {
        let old = entries[key.path]
        let signature = SignatureDigest(seen.signature)
        guard let readiness = readiness(after: cause, old: old, signature: signature, seen: seen) else { return }
        var entry = old ?? Entry(signature: signature, folder: key.folder, readiness: readiness, published: .no)
        (entry.signature, entry.folder, entry.readiness) = (signature, key.folder, readiness)
        store(entry, at: key)
        switch readiness {
        case .settling: settleQueue.append(key, at: clock.now.advanced(by: timing.settleTime))
        case .writing: quietQueue.append(key, at: clock.now.advanced(by: timing.quietTimeForOpenFiles))
        case .ready: break
        }
    }

    private func readiness(
        after cause: FileCause, old: Entry?, signature: SignatureDigest, seen: FileObservation
    ) -> Readiness? {
        switch cause {
        case .scan:
            if let old, old.readiness == .writing { return nil }
            if let old, old.readiness == .ready, old.signature == signature { return nil }
            // Unchanged since longer than the settle time already (the usual photo at start):
            // taken at once, so a small folder is published as one list.
            return seen.modifiedLongAgo ? .ready : .settling
        case .created:
            return seen.isLink ? .settling : .writing
        case .modified:
            return .writing
        case .closedAfterWrite, .movedIn:
            return .ready
        case .attributesChanged:
            guard let old else { return .settling }
            // Mode or owner changed (a photo made readable): a new version of the photo.
            guard old.readiness == .ready, old.signature != signature else { return nil }
            return .ready
        }
    }

    /// Forgets the file `key` (deleted, moved away, no longer a regular file).
    mutating func remove(_ key: FileKey) {
        guard let index = entries.index(forKey: key.path) else { return }
        // The stored path, which the published photo holds too.
        let (path, old) = entries.remove(at: index)
        account(old, becoming: nil)
        if old.published != .no { vanished.insert(PhotoID(bytes: path)) }
    }

    /// The files of `folders` (one pass over every file: for a folder scanned again or removed).
    func keys(inFolders folders: Set<Int32>) -> [FileKey] {
        var keys: [FileKey] = []
        for (path, entry) in entries where folders.contains(entry.folder) {
            keys.append(FileKey(folder: entry.folder, path: path))
        }
        return keys
    }

    /// The files whose settle or quiet time ran out: the driver looks at each again and reports
    /// with ``recheck(_:signature:)``.
    mutating func dueRechecks() -> [Recheck] {
        let now = clock.now
        var due: [Recheck] = []
        while let key = settleQueue.popDue(by: now.advanced(by: Self.settleSlack)) {
            if entries[key.path]?.readiness == .settling { due.append(Recheck(key: key, expecting: .settling)) }
        }
        while let key = quietQueue.popDue(by: now) {
            if entries[key.path]?.readiness == .writing { due.append(Recheck(key: key, expecting: .writing)) }
        }
        return due
    }

    /// What the driver saw when it looked again: `nil` when the file is gone or no longer a
    /// regular file. Unchanged: ready; changed: wait once more.
    mutating func recheck(_ recheck: Recheck, signature: FileSignature?) {
        guard var entry = entries[recheck.key.path], entry.readiness == recheck.expecting else { return }
        guard let seen = signature else { return remove(recheck.key) }
        let signature = SignatureDigest(seen)
        if signature == entry.signature {
            entry.readiness = .ready
        } else {
            entry.signature = signature
            if recheck.expecting == .settling {
                settleQueue.append(recheck.key, at: clock.now.advanced(by: timing.settleTime))
            } else {
                quietQueue.append(recheck.key, at: clock.now.advanced(by: timing.quietTimeForOpenFiles))
            }
        }
        store(entry, at: recheck.key)
    }

    /// The earliest moment something is due (a recheck, or the first list's patience).
    var nextDeadline: C.Instant? {
        var deadlines = [settleQueue.first, quietQueue.first].compactMap { $0 }
        if publishedCount == nil, let start = firstScanStart {
            // Only while it lies ahead: a passed patience must not make the loop spin.
            let patience = start.advanced(by: timing.firstListPatience)
            if patience > clock.now { deadlines.append(patience) }
        }
        if changed, firstScanPublished, let next = nextAllowedPublication, next > clock.now { deadlines.append(next) }
        return deadlines.min()
    }

    /// The lists to publish now, oldest first (none, one, or two when a replaced photo must
    /// leave the list for one publication). `scanSettled`: the driver has no scan running.
    mutating func publication(scanSettled: Bool) -> [[Photo]] {
        let settled = scanSettled && settlingCount == 0
        guard shouldPublish(settled: settled) else { return [] }
        changed = false
        var photos: [Photo] = []
        photos.reserveCapacity(readyCount)
        var replaced = Set(vanished.map(Photo.init(id:)))
        vanished.removeAll()
        // Walked by index, not over `entries.indices` (which holds the storage, so the first
        // change below would copy the whole table: 1.7 MB for 10,000 photos).
        var index = entries.startIndex
        while index != entries.endIndex {
            let entry = entries.values[index]
            if entry.readiness == .ready {
                let photo = Photo(id: PhotoID(bytes: entries.keys[index]))
                photos.append(photo)
                if entry.published == .changed { replaced.insert(photo) }
                if entry.published != .current { entries.values[index].published = .current }
            } else if entry.published != .no {
                entries.values[index].published = .no
            }
            entries.formIndex(after: &index)
        }
        photos.sort { $0.id < $1.id }
        var lists: [[Photo]] = []
        if !replaced.isEmpty, publishedCount != nil {
            let kept = photos.filter { !replaced.contains($0) }
            if kept.count != photos.count { lists.append(kept) }
        }
        publishedCount = photos.count
        firstScanStart = nil
        if settled { firstScanPublished = true }
        lastPublication = clock.now
        lists.append(photos)
        return lists
    }

    private func shouldPublish(settled: Bool) -> Bool {
        if let publishedCount {
            guard changed else { return false }
            if firstScanPublished { return nextAllowedPublication.map { $0 <= clock.now } ?? true }
            return settled || readyCount >= publishedCount * 2
        }
        guard readyCount > 0 || settled else { return false }
        if !settled, let start = firstScanStart, start.duration(to: clock.now) < timing.firstListPatience {
            return false
        }
        return true
    }

    /// The earliest moment the next list may go out, after the first full list.
    private var nextAllowedPublication: C.Instant? {
        lastPublication?.advanced(by: timing.minimumPublicationInterval)
    }

    private mutating func store(_ entry: Entry, at key: FileKey) {
        let old = entries.updateValue(entry, forKey: key.path)
        account(old, becoming: entry)
    }

    /// Keeps the counts, and notes whether the ready set changed.
    private mutating func account(_ old: Entry?, becoming new: Entry?) {
        if old?.readiness == .ready { readyCount -= 1 }
        if old?.readiness == .settling { settlingCount -= 1 }
        if new?.readiness == .ready { readyCount += 1 }
        if new?.readiness == .settling { settlingCount += 1 }
        if (old?.readiness == .ready) != (new?.readiness == .ready)
            || (new?.readiness == .ready && old?.signature != new?.signature)
        {
            changed = true
        }
    }
}
