import LinuxInterfaces

/// Files whose arrival may mean that the wall clock was just set, watched with inotify, without
/// polling: systemd-timesyncd's flag (``ClockSynchronisation/timesyncFlag``), which it touches
/// only after it has stepped the clock, and the clock module's report (``ClockModuleReport/file``).
///
/// Each file's folder is watched; while that folder does not exist (`/run/systemd/timesync`
/// before timesyncd starts), the nearest folder above it that does, going down as the folders
/// appear. Owns its ``Inotify``.
final class FlagFileWatch {
    /// One watched file, and the watch on the deepest of its folders that exists.
    private struct Target {
        /// The file's path.
        let path: String
        /// Its folders, from the root down to its own.
        let folders: [String]
        /// The file's name in its folder.
        let name: String
        /// Which of `folders` is watched.
        var depth = 0
        /// The watch on it; `nil` when no folder could be watched.
        var watch: Inotify.Watch?

        /// Whether the file's own folder is watched (not one above it).
        var watchesItsFolder: Bool { depth == folders.count - 1 }

        /// The name awaited in the watched folder: the file's, or the next folder's on its way.
        var awaitedName: String {
            watchesItsFolder ? name : String(folders[depth + 1].split(separator: "/").last ?? "")
        }
    }

    /// What every watch asks for: a file or folder created, moved in, written or touched, and
    /// the watched folder itself going away. One mask for all, since watching a folder again
    /// replaces its mask.
    private static let mask: Inotify.Mask = [
        .create, .movedTo, .closeWrite, .attributes, .deleteSelf, .moveSelf, .onlyDirectory,
    ]

    private let inotify: Inotify
    private var targets: [Target]
    /// Called with a folder on a file's way that could not be watched (it does not exist), before
    /// the folder above it is: a test makes the folder there, in that window.
    private let folderMissing: (String) -> Void

    /// The inotify descriptor, for `poll`.
    var fileDescriptor: Int32 { inotify.fileDescriptor }

    /// Starts watching `files` (absolute paths).
    init(files: [String], folderMissing: @escaping (String) -> Void = { _ in }) throws(SystemCallFailure) {
        inotify = try Inotify()
        targets = files.map(Self.target)
        self.folderMissing = folderMissing
        for index in targets.indices { place(index) }
    }

    /// Reads the pending events: the files that were created, moved in, written or touched, and
    /// those whose watch moved (a folder on the way appeared or went: the file may have come
    /// meanwhile). Empty when nothing of interest happened.
    func consume() -> [String] {
        var changed: [String] = []
        for event in inotify.readEvents() {
            if event.mask.contains(.overflow) {
                for index in targets.indices { place(index) }
                return targets.map(\.path)
            }
            for index in targets.indices where targets[index].watch == event.watch && handle(event, for: index) {
                changed.append(targets[index].path)
            }
        }
        return changed
    }

    /// Whether `event` on the target's watch concerns its file; moves the watch when a folder
    /// on the way appeared or the watched folder went.
    private func handle(_ event: Inotify.Event, for index: Int) -> Bool {
        if !event.mask.isDisjoint(with: [.deleteSelf, .moveSelf, .ignored, .unmount]) {
            place(index)
            return true
        }
        guard event.name == targets[index].awaitedName else { return false }
        if targets[index].watchesItsFolder { return true }
        guard !event.mask.isDisjoint(with: [.create, .movedTo]) else { return false }
        place(index)
        return true
    }

    /// Watches the deepest of the target's folders that exists, and lets go of a watch no target
    /// uses any more.
    private func place(_ index: Int) {
        var dropped = targets[index].watch.map { [$0] } ?? []
        targets[index].watch = nil
        for depth in targets[index].folders.indices.reversed() {
            if let watch = try? inotify.addWatch(targets[index].folders[depth], mask: Self.mask) {
                targets[index].depth = depth
                targets[index].watch = watch
                break
            }
            folderMissing(targets[index].folders[depth])
        }
        // A folder below may have appeared between its failed watch and the watch above it, whose
        // events then never tell of it: go down while the next folder can be watched. Once one
        // cannot, the watch above it is in place and tells of its arrival.
        while let watch = targets[index].watch, !targets[index].watchesItsFolder,
            let deeper = try? inotify.addWatch(targets[index].folders[targets[index].depth + 1], mask: Self.mask)
        {
            dropped.append(watch)
            targets[index].depth += 1
            targets[index].watch = deeper
        }
        for watch in Set(dropped) where !targets.contains(where: { $0.watch == watch }) { inotify.removeWatch(watch) }
    }

    /// The target of `path`: `/run/systemd/timesync/synchronized` is watched in
    /// `/run/systemd/timesync`, or `/run/systemd`, `/run`, `/`.
    private static func target(_ path: String) -> Target {
        let parts = path.split(separator: "/").map(String.init)
        var folders = ["/"]
        var folder = ""
        for part in parts.dropLast() {
            folder += "/" + part
            folders.append(folder)
        }
        return Target(path: path, folders: folders, name: parts.last ?? "")
    }
}
