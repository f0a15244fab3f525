import AlbumDomain
import LinuxInterfaces
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the watcher knows of the photo folder, kept up to date from inotify events, and the
/// photo list it publishes. Used by the watcher thread only.
///
/// Memory is per file a name, a size, a modification time and an inode; pixels are never read.
/// An event touches one entry (one `stat`); a new subfolder is scanned on its own; only a lost
/// event queue (`IN_Q_OVERFLOW`) rescans everything.
final class FolderIndex {
    /// Why an entry is looked at.
    enum Cause {
        /// Found by a scan.
        case scan
        /// `IN_CREATE`.
        case created
        /// `IN_MODIFY`.
        case modified
        /// `IN_CLOSE_WRITE`.
        case closedAfterWrite
        /// `IN_MOVED_TO`.
        case movedIn
        /// `IN_ATTRIB`.
        case attributesChanged
    }

    private struct FileEntry {
        enum Readiness { case ready, settling, writing }
        var signature: FileSignature
        var readiness: Readiness
        /// The signature last published, `nil` when the photo is not in the published list.
        var published: FileSignature?
    }

    private struct ParentLink {
        var watch: Inotify.Watch
        var name: String
    }

    private struct Directory {
        var path: String
        var identity: FileIdentity
        var parent: ParentLink?
        var files: [String: FileEntry] = [:]
        var subdirectories: [String: Inotify.Watch] = [:]

        /// Appends the ready photos and marks them published; collects the ones whose file changed
        /// since they were last published.
        mutating func collectReady(into photos: inout [Photo], replaced: inout Set<Photo>) {
            for index in files.indices {
                let (name, entry) = files[index]
                if entry.readiness == .ready {
                    let photo = Photo(id: PhotoID(joinPath(path, name)))
                    photos.append(photo)
                    if let published = entry.published, published != entry.signature { replaced.insert(photo) }
                    if entry.published != entry.signature { files.values[index].published = entry.signature }
                } else if entry.published != nil {
                    files.values[index].published = nil
                }
            }
        }
    }

    private struct Due {
        var watch: Inotify.Watch
        var name: String
        var deadline: ContinuousClock.Instant
    }

    /// A first-in first-out queue of re-checks; deadlines grow, so the head is the earliest.
    private struct DueQueue {
        private var items: [Due] = []
        private var head = 0

        var first: Due? { head < items.count ? items[head] : nil }

        mutating func append(_ due: Due) { items.append(due) }

        mutating func removeFirst() {
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }

        mutating func removeAll() {
            items.removeAll()
            head = 0
        }
    }

    private struct ScanCursor {
        var watch: Inotify.Watch
        var names: [String]
        var next = 0
    }

    private static let directoryMask: Inotify.Mask = [
        .create, .delete, .movedFrom, .movedTo, .closeWrite, .modify, .attributes, .deleteSelf, .moveSelf,
        .onlyDirectory,
    ]
    private static let parentMask: Inotify.Mask = [.create, .movedTo, .attributes, .onlyDirectory]

    private let root: String
    private let rootName: String
    private let rootParent: String
    private let inotify: Inotify
    private let timing: FolderWatchTiming
    private let logger: Logger
    private let publish: (PhotoListState) -> Void

    private var directories: [Inotify.Watch: Directory] = [:]
    private var identities: [FileIdentity: Inotify.Watch] = [:]
    private var rootWatch: Inotify.Watch?
    private var parentWatch: Inotify.Watch?
    private var nextRootAttempt: ContinuousClock.Instant?
    private var reportedFailure: String?
    private var pendingScans: [Inotify.Watch] = []
    private var scanning: ScanCursor?
    private var settleQueue = DueQueue()
    private var quietQueue = DueQueue()
    private var readyCount = 0
    private var settlingCount = 0
    private var changed = false
    private var vanished: Set<String> = []
    private var publishedCount: Int?
    /// Whether the full list of the first scan was published (pacing ends there).
    private var firstScanPublished = false
    /// When the folder was opened, until its first list is published.
    private var firstScanStart: ContinuousClock.Instant?
    /// Files whose settle time ends this close together are taken together, so files copied in
    /// one go are published as one list.
    private static let settleSlack = Duration.milliseconds(20)

    /// Creates the index of `root`; nothing happens before ``start()``.
    init(
        root: String, inotify: Inotify, timing: FolderWatchTiming, logger: Logger,
        publish: @escaping (PhotoListState) -> Void
    ) {
        var trimmed = root
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
        let slash = trimmed.lastIndex(of: "/")
        rootName = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        rootParent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        self.inotify = inotify
        self.timing = timing
        self.logger = logger
        self.publish = publish
    }

    /// Publishes ``PhotoListState/loading`` and starts watching and scanning.
    func start() {
        publish(.loading)
        openRoot()
    }

    // MARK: The loop's steps

    /// How long the loop may block in `poll`, in milliseconds (-1: until an event).
    func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        if scanning != nil || !pendingScans.isEmpty { return 0 }
        var deadlines = [settleQueue.first?.deadline, quietQueue.first?.deadline, nextRootAttempt].compactMap { $0 }
        if publishedCount == nil, let start = firstScanStart, start.advanced(by: timing.firstListPatience) > now {
            deadlines.append(start.advanced(by: timing.firstListPatience))
        }
        guard let deadline = deadlines.min() else { return -1 }
        let wait = deadline - now
        guard wait > .zero else { return 0 }
        let (seconds, attoseconds) = wait.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// Handles a batch of inotify events.
    func handle(_ events: [Inotify.Event]) {
        for event in events {
            handle(event)
        }
    }

    /// Re-checks files whose settle or quiet time ran out, and looks for a missing folder.
    func processDeadlines(now: ContinuousClock.Instant) {
        while let due = settleQueue.first, due.deadline <= now.advanced(by: Self.settleSlack) {
            settleQueue.removeFirst()
            recheck(due, expecting: .settling, now: now)
        }
        while let due = quietQueue.first, due.deadline <= now {
            quietQueue.removeFirst()
            recheck(due, expecting: .writing, now: now)
        }
        if rootWatch == nil, let next = nextRootAttempt, next <= now {
            nextRootAttempt = now.advanced(by: timing.missingFolderRetry)
            openRoot()
        }
    }

    /// Scans up to a batch of folder entries.
    func scanStep() {
        var budget = timing.scanBatchSize
        while budget > 0 {
            if scanning == nil {
                guard !pendingScans.isEmpty else { return }
                beginScan(of: pendingScans.removeFirst())
                budget -= 1
                continue
            }
            guard var cursor = scanning else { return }
            let end = min(cursor.names.count, cursor.next + budget)
            budget -= end - cursor.next
            scanning = nil
            while cursor.next < end {
                note(cursor.names[cursor.next], in: cursor.watch, cause: .scan)
                cursor.next += 1
                // The directory may have gone while noting (a name that replaced it).
                guard directories[cursor.watch] != nil else { break }
            }
            if cursor.next < cursor.names.count, directories[cursor.watch] != nil { scanning = cursor }
        }
    }

    /// Publishes the photo list if the set of ready photos changed. While the first scan runs it
    /// is paced: the first ready photos at once, then each time the count doubles, then the full
    /// list; after that, every change at once.
    func publishIfChanged() {
        guard rootWatch != nil else { return }
        let settled = scanning == nil && pendingScans.isEmpty && settlingCount == 0
        if let publishedCount {
            guard changed else { return }
            if !settled, !firstScanPublished, readyCount < publishedCount * 2 { return }
        } else {
            guard readyCount > 0 || settled else { return }
            if !settled, let start = firstScanStart, ContinuousClock.now - start < timing.firstListPatience { return }
        }
        changed = false
        var photos: [Photo] = []
        photos.reserveCapacity(readyCount)
        var replaced: Set<Photo> = []
        for watch in Array(directories.keys) {
            directories[watch]!.collectReady(into: &photos, replaced: &replaced)
        }
        for path in vanished {
            let photo = Photo(id: PhotoID(path))
            replaced.insert(photo)
        }
        vanished.removeAll()
        photos.sort { $0.id < $1.id }
        if !replaced.isEmpty, publishedCount != nil {
            // A replaced file leaves the list for one publication, so the interactor drops its stale
            // prefetched frame and forgets an earlier decoding failure.
            let kept = photos.filter { !replaced.contains($0) }
            if kept.count != photos.count {
                logger.debug("\(photos.count - kept.count) photos changed on disk")
                publish(.loaded(kept))
            }
        }
        publishedCount = photos.count
        firstScanStart = nil
        if settled { firstScanPublished = true }
        if !settled { logger.debug("\(photos.count) photos ready so far in \(root)") }
        publish(.loaded(photos))
    }

    /// Something was mounted or unmounted: if the folder's path now leads to another folder (a
    /// USB stick mounted on it or on a parent), start over there; if it was missing, look again.
    func mountTableChanged() {
        guard let rootWatch else {
            openRoot()
            return
        }
        let current = try? FileStatus(path: root)
        guard current?.identity == directories[rootWatch]?.identity else {
            logger.notice("a mount changed the photo folder \(root): reading it again")
            clearAll()
            openRoot()
            return
        }
        // A subfolder mounted over or unmounted: read that subfolder again.
        for (watch, directory) in directories {
            guard let parent = directory.parent, directories[watch] != nil,
                (try? FileStatus(path: directory.path))?.identity != directory.identity
            else { continue }
            removeDirectory(watch)
            note(parent.name, in: parent.watch, cause: .scan)
        }
    }

    // MARK: The root folder

    private func openRoot() {
        let status: FileStatus
        do throws(FolderError) {
            status = try FileStatus(path: root)
        } catch {
            rootMissing(
                error.isMissing
                    ? "the photo folder \(root) does not exist" : "the photo folder \(root) cannot be read: \(error)")
            return
        }
        guard status.kind == .directory else {
            rootMissing("\(root) is not a folder")
            return
        }
        guard let watch = addDirectory(root, status: status, parent: nil) else {
            rootMissing("the photo folder \(root) cannot be read (permission denied?)")
            return
        }
        rootWatch = watch
        firstScanStart = .now
        nextRootAttempt = nil
        if let parentWatch {
            inotify.removeWatch(parentWatch)
            self.parentWatch = nil
        }
        if reportedFailure != nil {
            logger.notice("the photo folder \(root) is back")
            reportedFailure = nil
            publish(.loading)
        }
    }

    /// Forgets the whole tree and its watches, without publishing anything.
    private func clearAll() {
        if let rootWatch { removeDirectory(rootWatch) }
        rootWatch = nil
        for watch in Array(directories.keys) { removeDirectory(watch) }
        pendingScans.removeAll()
        scanning = nil
        settleQueue.removeAll()
        quietQueue.removeAll()
        vanished.removeAll()
        readyCount = 0
        settlingCount = 0
        changed = false
        publishedCount = nil
        firstScanPublished = false
        firstScanStart = nil
    }

    private func rootMissing(_ reason: String) {
        clearAll()
        if reportedFailure != reason {
            logger.error("\(reason)")
            reportedFailure = reason
            publish(.failed(reason: reason))
        }
        if parentWatch == nil {
            parentWatch = try? inotify.addWatch(rootParent, mask: Self.parentMask)
        }
        nextRootAttempt = ContinuousClock.now.advanced(by: timing.missingFolderRetry)
    }

    // MARK: Events

    private func handle(_ event: Inotify.Event) {
        if event.mask.contains(.overflow) {
            logger.warning("the inotify queue overflowed: rescanning \(root)")
            for watch in directories.keys where !pendingScans.contains(watch) { pendingScans.append(watch) }
            return
        }
        if let parentWatch, event.watch == parentWatch {
            if event.mask.contains(.ignored) {
                self.parentWatch = nil
            } else if event.name == rootName, rootWatch == nil {
                openRoot()
            }
            return
        }
        guard let directory = directories[event.watch] else { return }
        if event.watch == rootWatch, !event.mask.isDisjoint(with: [.deleteSelf, .moveSelf, .unmount, .ignored]) {
            rootMissing("the photo folder \(root) was removed or unmounted")
            return
        }
        if event.mask.contains(.ignored) {
            // The kernel dropped the watch (deleted, or its file system unmounted): look again.
            removeDirectory(event.watch)
            if let parent = directory.parent { note(parent.name, in: parent.watch, cause: .scan) }
            return
        }
        guard !event.name.isEmpty else { return }
        if !event.mask.isDisjoint(with: [.delete, .movedFrom]) {
            removeEntry(event.name, in: event.watch)
        } else if event.mask.contains(.movedTo) {
            note(event.name, in: event.watch, cause: .movedIn)
        } else if event.mask.contains(.create) {
            note(event.name, in: event.watch, cause: .created)
        } else if event.mask.contains(.closeWrite) {
            note(event.name, in: event.watch, cause: .closedAfterWrite)
        } else if event.mask.contains(.modify) {
            note(event.name, in: event.watch, cause: .modified)
        } else if event.mask.contains(.attributes) {
            note(event.name, in: event.watch, cause: .attributesChanged)
        }
    }

    // MARK: Directories

    private func addDirectory(_ path: String, status: FileStatus, parent: ParentLink?) -> Inotify.Watch? {
        if let existing = identities[status.identity] {
            logger.debug(
                "skipping \(path): the same folder as \(directories[existing]?.path ?? "?") (symbolic link loop)")
            return nil
        }
        let watch: Inotify.Watch
        do throws(SystemCallFailure) {
            watch = try inotify.addWatch(path, mask: Self.directoryMask)
        } catch {
            if error.code == ENOSPC {
                logger.warning("cannot watch \(path): too many folders for inotify (raise fs.inotify.max_user_watches)")
            } else {
                logger.warning("skipping \(path): \(error)")
            }
            return nil
        }
        guard directories[watch] == nil else { return nil }
        directories[watch] = Directory(path: path, identity: status.identity, parent: parent)
        identities[status.identity] = watch
        if let parent { directories[parent.watch]?.subdirectories[parent.name] = watch }
        pendingScans.append(watch)
        return watch
    }

    private func beginScan(of watch: Inotify.Watch) {
        guard let directory = directories[watch] else { return }
        let names: [String]
        do throws(FolderError) {
            names = try directoryEntries(directory.path)
        } catch {
            logger.warning("cannot read \(directory.path): \(error)")
            return
        }
        if !directory.files.isEmpty || !directory.subdirectories.isEmpty {
            // A rescan: forget what is gone.
            let present = Set(names)
            for name in directory.files.keys where !present.contains(name) { removeEntry(name, in: watch) }
            for name in directory.subdirectories.keys where !present.contains(name) { removeEntry(name, in: watch) }
        }
        scanning = ScanCursor(watch: watch, names: names)
    }

    private func removeDirectory(_ watch: Inotify.Watch) {
        guard let directory = directories.removeValue(forKey: watch) else { return }
        if identities[directory.identity] == watch { identities.removeValue(forKey: directory.identity) }
        inotify.removeWatch(watch)
        for (name, entry) in directory.files {
            account(removing: entry, path: joinPath(directory.path, name))
        }
        for child in directory.subdirectories.values { removeDirectory(child) }
        if let parent = directory.parent, directories[parent.watch]?.subdirectories[parent.name] == watch {
            directories[parent.watch]?.subdirectories.removeValue(forKey: parent.name)
        }
        if scanning?.watch == watch { scanning = nil }
        pendingScans.removeAll { $0 == watch }
    }

    // MARK: Files

    private func note(_ name: String, in watch: Inotify.Watch, cause: Cause) {
        guard !FolderScan.isIgnored(name: name), let directory = directories[watch] else { return }
        if cause == .modified, directory.files[name]?.readiness == .writing { return }
        let path = joinPath(directory.path, name)
        let status: FileStatus
        do throws(FolderError) {
            status = try FileStatus(path: path)
        } catch {
            // Gone already, or a dangling symbolic link.
            removeEntry(name, in: watch)
            return
        }
        switch status.kind {
        case .directory:
            if let old = directories[watch]?.files.removeValue(forKey: name) { account(removing: old, path: path) }
            if let child = directory.subdirectories[name] {
                if directories[child]?.identity == status.identity { return }
                removeDirectory(child)
            }
            _ = addDirectory(path, status: status, parent: ParentLink(watch: watch, name: name))
        case .regular:
            if let child = directory.subdirectories[name] { removeDirectory(child) }
            guard FolderScan.isPhoto(name: name) else { return }
            noteFile(name, path: path, in: watch, status: status, old: directory.files[name], cause: cause)
        case .symbolicLink, .other:
            removeEntry(name, in: watch)
        }
    }

    private func noteFile(
        _ name: String, path: String, in watch: Inotify.Watch, status: FileStatus, old: FileEntry?, cause: Cause
    ) {
        let now = ContinuousClock.now
        var readiness: FileEntry.Readiness
        switch cause {
        case .scan:
            if let old, old.readiness == .writing { return }
            if let old, old.readiness == .ready, old.signature == status.signature { return }
            // Unchanged since longer than the settle time already (the usual photo at start):
            // taken at once, so a small folder is published as one list, and a seed gives the
            // same order every run.
            readiness = status.modifiedLongerAgo(than: timing.settleTime) ? .ready : .settling
        case .created:
            let isLink = (try? FileStatus(path: path, followingLinks: false))?.kind == .symbolicLink
            // A new symbolic link or hard link points at a file that already exists; a new plain file
            // is being written until its writer closes it.
            readiness = isLink || status.links > 1 ? .settling : .writing
        case .modified:
            readiness = .writing
        case .closedAfterWrite, .movedIn:
            readiness = .ready
        case .attributesChanged:
            if let old {
                guard old.readiness == .ready, old.signature != status.signature else { return }
                readiness = .ready
            } else {
                readiness = .settling
            }
        }
        let entry = FileEntry(signature: status.signature, readiness: readiness, published: old?.published)
        store(entry, named: name, in: watch, replacing: old)
        switch readiness {
        case .settling:
            settleQueue.append(Due(watch: watch, name: name, deadline: now.advanced(by: timing.settleTime)))
        case .writing:
            quietQueue.append(Due(watch: watch, name: name, deadline: now.advanced(by: timing.quietTimeForOpenFiles)))
        case .ready:
            break
        }
    }

    private func recheck(_ due: Due, expecting readiness: FileEntry.Readiness, now: ContinuousClock.Instant) {
        guard let directory = directories[due.watch], let entry = directory.files[due.name],
            entry.readiness == readiness
        else { return }
        let path = joinPath(directory.path, due.name)
        guard let status = try? FileStatus(path: path), status.kind == .regular else {
            removeEntry(due.name, in: due.watch)
            return
        }
        var updated = entry
        if status.signature == entry.signature {
            updated.readiness = .ready
        } else {
            updated.signature = status.signature
            let wait = readiness == .settling ? timing.settleTime : timing.quietTimeForOpenFiles
            let again = Due(watch: due.watch, name: due.name, deadline: now.advanced(by: wait))
            if readiness == .settling { settleQueue.append(again) } else { quietQueue.append(again) }
        }
        store(updated, named: due.name, in: due.watch, replacing: entry)
    }

    private func removeEntry(_ name: String, in watch: Inotify.Watch) {
        guard let directory = directories[watch] else { return }
        if let old = directories[watch]?.files.removeValue(forKey: name) {
            account(removing: old, path: joinPath(directory.path, name))
        }
        if let child = directory.subdirectories[name] { removeDirectory(child) }
    }

    private func store(_ entry: FileEntry, named name: String, in watch: Inotify.Watch, replacing old: FileEntry?) {
        directories[watch]?.files[name] = entry
        if old?.readiness == .ready { readyCount -= 1 }
        if old?.readiness == .settling { settlingCount -= 1 }
        if entry.readiness == .ready { readyCount += 1 }
        if entry.readiness == .settling { settlingCount += 1 }
        if (old?.readiness == .ready) != (entry.readiness == .ready)
            || (entry.readiness == .ready && old?.signature != entry.signature)
        {
            changed = true
        }
    }

    private func account(removing old: FileEntry, path: String) {
        if old.readiness == .ready {
            readyCount -= 1
            changed = true
        }
        if old.readiness == .settling { settlingCount -= 1 }
        if old.published != nil { vanished.insert(path) }
    }
}
