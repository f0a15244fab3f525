import LinuxInterfaces

/// Watches a device directory (`/dev/input`) with inotify for nodes that appear (`IN_CREATE`), whose
/// permissions udev has just set (`IN_ATTRIB`), and that go away (`IN_DELETE`).
/// Owns its ``Inotify`` instance.
final class DeviceDirectoryWatcher {
    /// One thing that happened in the directory.
    enum Change: Equatable {
        /// A node was created or moved in (`IN_CREATE`, `IN_MOVED_TO`).
        case created(String)
        /// A node's attributes changed (`IN_ATTRIB`): udev set its owner, group or mode.
        case attributesChanged(String)
        /// A node was deleted or moved out (`IN_DELETE`, `IN_MOVED_FROM`).
        case deleted(String)
        /// The kernel's event queue overflowed (`IN_Q_OVERFLOW`): rescan the directory.
        case overflowed
    }

    /// The watched directory.
    let directory: String
    private let inotify: Inotify

    /// The inotify descriptor, for `poll`.
    var fileDescriptor: Int32 { inotify.fileDescriptor }

    /// Starts watching (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`, `inotify_add_watch`).
    init(directory: String) throws(InputError) {
        let inotify: Inotify
        do {
            inotify = try Inotify()
            _ = try inotify.addWatch(directory, mask: [.create, .attributes, .delete, .movedTo, .movedFrom])
        } catch {
            throw InputError(error)
        }
        self.inotify = inotify
        self.directory = directory
    }

    /// Reads every pending inotify event (non-blocking), as changes of node names (`event3`).
    func readChanges() -> [Change] {
        inotify.readEvents().compactMap { event in
            if event.mask.contains(.overflow) { return .overflowed }
            if !event.mask.isDisjoint(with: [.create, .movedTo]) { return .created(event.name) }
            if !event.mask.isDisjoint(with: [.delete, .movedFrom]) { return .deleted(event.name) }
            if event.mask.contains(.attributes) { return .attributesChanged(event.name) }
            return nil
        }
    }

    /// The `eventN` nodes now in the directory, in numeric order.
    static func eventNodes(in directory: String) throws(InputError) -> [String] {
        let names: [String]
        do { names = try directoryEntries(directory) } catch { throw InputError(error) }
        return names.filter(isEventNode).sorted { (eventNumber($0) ?? 0) < (eventNumber($1) ?? 0) }
    }

    /// Whether a node name is an evdev node (`event` followed by digits).
    static func isEventNode(_ name: String) -> Bool {
        eventNumber(name) != nil
    }

    private static func eventNumber(_ name: String) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        return Int(name.dropFirst(5))
    }
}
