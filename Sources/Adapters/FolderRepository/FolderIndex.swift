import AlbumDomain
import LinuxInterfaces
import Logging

/// The thin driver of the folder watcher: keeps the tree of watched folders, turns inotify
/// events and `stat` into observations for the pure ``FolderReadiness`` model, and publishes the
/// lists the model decides on. Used by the watcher thread only.
///
/// Paths are bytes from `readdir` and inotify to `stat` and into the photo ids, so a name that
/// is not UTF-8, or two names that differ only in Unicode normalisation, are photos like any
/// other. Memory is per file its path (which holds its name), a digest of its signature and its
/// state; pixels are never read. An event touches one entry (one `stat`); a new subfolder is
/// scanned on its own; only a lost event queue (`IN_Q_OVERFLOW`) rescans everything, and a
/// folder scanned again or removed costs one pass over the files.
final class FolderIndex {
    private struct ParentLink {
        var watch: Inotify.Watch
        var name: [UInt8]
    }

    private struct Directory {
        var path: [UInt8]
        var identity: FileIdentity
        var parent: ParentLink?
        /// Whether it was scanned already (a scan again must forget what is gone).
        var scanned = false
        var subdirectories: [[UInt8]: Inotify.Watch] = [:]
    }

    private struct ScanCursor {
        var watch: Inotify.Watch
        var names: PackedNames
        var next = 0
    }

    private static let directoryMask: Inotify.Mask = [
        .create, .delete, .movedFrom, .movedTo, .closeWrite, .modify, .attributes, .deleteSelf, .moveSelf,
        .onlyDirectory,
    ]
    private static let parentMask: Inotify.Mask = [.create, .movedTo, .attributes, .onlyDirectory]

    private let root: [UInt8]
    private let rootName: [UInt8]
    private let rootParent: [UInt8]
    /// The root, escaped for log lines.
    private let rootText: String
    private let inotify: Inotify
    private let timing: FolderWatchTiming
    private let limits: FolderScanLimits
    private let logger: Logger
    private let publish: (PhotoListState) -> Void

    private var readiness: FolderReadiness<ContinuousClock>
    private var directories: [Inotify.Watch: Directory] = [:]
    private var identities: [FileIdentity: Inotify.Watch] = [:]
    private var rootWatch: Inotify.Watch?
    private var parentWatch: Inotify.Watch?
    private var nextRootAttempt: ContinuousClock.Instant?
    private var reportedFailure: String?
    private var pendingScans: [Inotify.Watch] = []
    private var scanning: ScanCursor?
    private var reportedLimits: Set<String> = []

    /// Creates the index of `root`; nothing happens before ``start()``.
    init(
        root: String, inotify: Inotify, timing: FolderWatchTiming, limits: FolderScanLimits = .standard,
        logger: Logger, clock: ContinuousClock = ContinuousClock(), publish: @escaping (PhotoListState) -> Void
    ) {
        var trimmed = Array(root.utf8)
        while trimmed.count > 1, trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        self.root = trimmed
        let slash = trimmed.lastIndex(of: UInt8(ascii: "/"))
        rootName = slash.map { Array(trimmed[($0 + 1)...]) } ?? trimmed
        rootParent = slash.map { $0 == 0 ? [UInt8(ascii: "/")] : Array(trimmed[..<$0]) } ?? [UInt8(ascii: ".")]
        rootText = PhotoID(bytes: trimmed).description
        self.inotify = inotify
        self.timing = timing
        self.limits = limits
        self.logger = logger
        self.publish = publish
        readiness = FolderReadiness(clock: clock, timing: timing)
    }

    /// Publishes ``PhotoListState/loading`` and starts watching and scanning.
    func start() {
        publish(.loading)
        openRoot()
    }

    // MARK: The loop's steps

    /// How long the loop may block in `poll`, in milliseconds (-1: until an event).
    func pollTimeout() -> Int32 {
        if scanning != nil || !pendingScans.isEmpty { return 0 }
        guard let deadline = [readiness.nextDeadline, nextRootAttempt].compactMap({ $0 }).min() else { return -1 }
        return readiness.clock.now.duration(to: deadline).roundedUpMilliseconds
    }

    /// Handles a batch of inotify events.
    func handle(_ events: [Inotify.Event]) {
        for event in events {
            handle(event)
        }
    }

    /// Re-checks files whose settle or quiet time ran out, and looks for a missing folder.
    func processDeadlines() {
        for due in readiness.dueRechecks() {
            guard directories[Inotify.Watch(rawValue: due.key.folder)] != nil else { continue }
            // The key of a file the index noted holds its whole path.
            let status = try? FileStatus(pathBytes: due.key.path)
            readiness.recheck(due, signature: status?.kind == .regular ? status?.signature : nil)
        }
        let now = readiness.clock.now
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

    /// Publishes what the readiness model decides (nothing while the folder is missing).
    func publishIfChanged() {
        guard rootWatch != nil else { return }
        let scanSettled = scanning == nil && pendingScans.isEmpty
        let lists = readiness.publication(scanSettled: scanSettled)
        for (index, photos) in lists.enumerated() {
            if index < lists.count - 1 {
                logger.debug("photos changed on disk: publishing \(photos.count) without them")
            }
            publish(.loaded(photos))
        }
        if !lists.isEmpty, !scanSettled { logger.debug("\(lists.last!.count) photos ready so far in \(rootText)") }
    }

    /// Something was mounted or unmounted: if the folder's path now leads to another folder (a
    /// USB stick mounted on it or on a parent), start over there; if it was missing, look again.
    func mountTableChanged() {
        guard let rootWatch else {
            openRoot()
            return
        }
        let current = try? FileStatus(pathBytes: root)
        guard current?.identity == directories[rootWatch]?.identity else {
            logger.notice("a mount changed the photo folder \(rootText): reading it again")
            clearAll()
            openRoot()
            return
        }
        // A subfolder mounted over or unmounted: read that subfolder again.
        for (watch, directory) in directories {
            guard let parent = directory.parent, directories[watch] != nil,
                (try? FileStatus(pathBytes: directory.path))?.identity != directory.identity
            else { continue }
            removeDirectory(watch)
            note(parent.name[...], in: parent.watch, cause: .scan)
        }
    }

    // MARK: The root folder

    private func openRoot() {
        let status: FileStatus
        do throws(FolderError) {
            status = try FileStatus(pathBytes: root)
        } catch {
            rootMissing(
                error.isMissing
                    ? "the photo folder \(rootText) does not exist"
                    : "the photo folder \(rootText) cannot be read: \(error.withoutPath)\(permissionObstacleNote(root))"
            )
            return
        }
        guard status.kind == .directory else {
            rootMissing("\(rootText) is not a folder")
            return
        }
        readiness.folderOpened()
        guard let watch = addDirectory(root, status: status, parent: nil) else {
            rootMissing(
                "the photo folder \(rootText) cannot be read (permission denied?)\(permissionObstacleNote(root))")
            return
        }
        rootWatch = watch
        nextRootAttempt = nil
        if let parentWatch {
            inotify.removeWatch(parentWatch)
            self.parentWatch = nil
        }
        if reportedFailure != nil {
            logger.notice("the photo folder \(rootText) is back")
            reportedFailure = nil
            publish(.loading)
        }
    }

    /// Forgets the whole tree and its watches, without publishing anything.
    private func clearAll() {
        // The readiness model is replaced below: its files need not be removed one by one.
        var gone: Set<Int32> = []
        for watch in Array(directories.keys) { forgetDirectory(watch, into: &gone) }
        rootWatch = nil
        pendingScans.removeAll()
        scanning = nil
        readiness = FolderReadiness(clock: readiness.clock, timing: timing)
        reportedLimits.removeAll()
    }

    private func rootMissing(_ reason: String) {
        clearAll()
        if reportedFailure != reason {
            logger.error("\(reason)")
            reportedFailure = reason
            publish(.failed(reason: reason))
        }
        if parentWatch == nil {
            parentWatch = try? inotify.addWatch(pathBytes: rootParent, mask: Self.parentMask)
        }
        nextRootAttempt = readiness.clock.now.advanced(by: timing.missingFolderRetry)
    }

    // MARK: Events

    private func handle(_ event: Inotify.Event) {
        if event.mask.contains(.overflow) {
            logger.warning("the inotify queue overflowed: rescanning \(rootText)")
            for watch in directories.keys where !pendingScans.contains(watch) { pendingScans.append(watch) }
            return
        }
        if let parentWatch, event.watch == parentWatch {
            if event.mask.contains(.ignored) {
                self.parentWatch = nil
            } else if event.nameBytes == rootName, rootWatch == nil {
                openRoot()
            }
            return
        }
        guard let directory = directories[event.watch] else { return }
        if event.watch == rootWatch, !event.mask.isDisjoint(with: [.deleteSelf, .moveSelf, .unmount, .ignored]) {
            rootMissing("the photo folder \(rootText) was removed or unmounted")
            return
        }
        if event.mask.contains(.ignored) {
            // The kernel dropped the watch (deleted, or its file system unmounted): look again.
            removeDirectory(event.watch)
            if let parent = directory.parent { note(parent.name[...], in: parent.watch, cause: .scan) }
            return
        }
        let name = event.nameBytes
        guard !name.isEmpty else { return }
        if !event.mask.isDisjoint(with: [.delete, .movedFrom]) {
            removeEntry(name, in: event.watch)
        } else if let cause = Self.cause(of: event.mask) {
            note(name[...], in: event.watch, cause: cause)
        }
    }

    private static func cause(of mask: Inotify.Mask) -> FileCause? {
        if mask.contains(.movedTo) { return .movedIn }
        if mask.contains(.create) { return .created }
        if mask.contains(.closeWrite) { return .closedAfterWrite }
        if mask.contains(.modify) { return .modified }
        if mask.contains(.attributes) { return .attributesChanged }
        return nil
    }

    // MARK: Directories

    private func addDirectory(_ path: [UInt8], status: FileStatus, parent: ParentLink?) -> Inotify.Watch? {
        let text = PhotoID(bytes: path).description
        if let existing = identities[status.identity] {
            let other = directories[existing].map { PhotoID(bytes: $0.path).description } ?? "?"
            logger.debug("skipping \(text): \(FolderSkipReason.sameFolderAs(other))")
            return nil
        }
        guard directories.count < limits.maxFolders else {
            reportLimit(.folderLimit(limits.maxFolders), at: text)
            return nil
        }
        let watch: Inotify.Watch
        do throws(SystemCallFailure) {
            watch = try inotify.addWatch(pathBytes: path, mask: Self.directoryMask)
        } catch {
            if error.isOutOfSpace {
                logger.warning("cannot watch \(text): too many folders for inotify (raise fs.inotify.max_user_watches)")
            } else {
                logger.warning("skipping \(text): \(error.withoutPath)")
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

    /// Logs a cap reached, once until the folder is read afresh.
    private func reportLimit(_ reason: FolderSkipReason, at path: String) {
        guard reportedLimits.insert(reason.description).inserted else { return }
        let hint = "a symbolic link out of the folder? `babyalbum doctor` shows where"
        logger.warning("the photo folder \(rootText) has \(reason) (from \(path) on; \(hint))")
    }

    private func beginScan(of watch: Inotify.Watch) {
        guard let directory = directories[watch] else { return }
        let names: PackedNames
        do throws(FolderError) {
            names = try packedDirectoryEntryNames(directory.path)
        } catch {
            logger.warning("cannot read \(PhotoID(bytes: directory.path)): \(error.withoutPath)")
            return
        }
        if directory.scanned {
            // A rescan: forget what is gone.
            let present = Set(names)
            for key in readiness.keys(inFolders: [watch.rawValue]) where !present.contains(key.name) {
                readiness.remove(key)
            }
            for name in directory.subdirectories.keys where !present.contains(name[...]) {
                removeEntry(name, in: watch)
            }
        }
        directories[watch]?.scanned = true
        scanning = ScanCursor(watch: watch, names: names)
    }

    /// Forgets the folder `watch`, its subfolders and their files (one pass over the files).
    private func removeDirectory(_ watch: Inotify.Watch) {
        var gone: Set<Int32> = []
        forgetDirectory(watch, into: &gone)
        guard !gone.isEmpty else { return }
        for key in readiness.keys(inFolders: gone) { readiness.remove(key) }
    }

    /// Forgets the folder `watch` and its subfolders, adding them to `gone`; their files are
    /// left to the caller.
    private func forgetDirectory(_ watch: Inotify.Watch, into gone: inout Set<Int32>) {
        guard let directory = directories.removeValue(forKey: watch) else { return }
        gone.insert(watch.rawValue)
        if identities[directory.identity] == watch { identities.removeValue(forKey: directory.identity) }
        inotify.removeWatch(watch)
        for child in directory.subdirectories.values { forgetDirectory(child, into: &gone) }
        if let parent = directory.parent, directories[parent.watch]?.subdirectories[parent.name] == watch {
            directories[parent.watch]?.subdirectories.removeValue(forKey: parent.name)
        }
        if scanning?.watch == watch { scanning = nil }
        pendingScans.removeAll { $0 == watch }
    }

    // MARK: Files

    private func note(_ name: ArraySlice<UInt8>, in watch: Inotify.Watch, cause: FileCause) {
        guard !FolderScan.isIgnored(name: name), let directory = directories[watch] else { return }
        // The key holds the path, which becomes the photo's id: the name is not kept apart.
        let path = joinPath(directory.path, name)
        let key = FileKey(folder: watch.rawValue, path: path)
        if cause == .modified, readiness.isWriting(key) { return }
        guard let status = try? FileStatus(pathBytes: path) else {
            // Gone already, or a dangling symbolic link.
            return removeEntry(Array(name), in: watch)
        }
        let child = directory.subdirectories.isEmpty ? nil : directory.subdirectories[Array(name)]
        switch FolderScan.classify(name: name, kind: status.kind.entryKind) {
        case .folder:
            readiness.remove(key)
            if let child {
                if directories[child]?.identity == status.identity { return }
                removeDirectory(child)
            }
            _ = addDirectory(path, status: status, parent: ParentLink(watch: watch, name: Array(name)))
        case .photo:
            if let child { removeDirectory(child) }
            noteFile(key, status: status, cause: cause)
        case .skipped:
            removeEntry(Array(name), in: watch)
        }
    }

    private func noteFile(_ key: FileKey, status: FileStatus, cause: FileCause) {
        if !readiness.contains(key), readiness.fileCount >= limits.maxPhotos {
            return reportLimit(.photoLimit(limits.maxPhotos), at: PhotoID(bytes: key.path).description)
        }
        var isLink = false
        if cause == .created {
            let own = try? FileStatus(pathBytes: key.path, followingLinks: false)
            isLink = own?.kind == .symbolicLink || status.links > 1
        }
        let seen = FileObservation(
            signature: status.signature,
            modifiedLongAgo: cause == .scan && status.modifiedLongerAgo(than: timing.settleTime),
            isLink: isLink)
        readiness.observe(key, seen, cause: cause)
    }

    private func removeEntry(_ name: [UInt8], in watch: Inotify.Watch) {
        guard let directory = directories[watch] else { return }
        readiness.remove(FileKey(folder: watch.rawValue, path: joinPath(directory.path, name)))
        if let child = directory.subdirectories[name] { removeDirectory(child) }
    }
}

extension FileStatus.Kind {
    /// The kind the scan's rules look at (links are followed before this).
    var entryKind: FolderEntryKind {
        switch self {
        case .regular: .regular
        case .directory: .folder
        case .symbolicLink, .other: .other
        }
    }
}
