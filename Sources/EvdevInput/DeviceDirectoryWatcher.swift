#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Watches a device directory (`/dev/input`) with inotify for nodes that appear (`IN_CREATE`), whose
/// permissions udev has just set (`IN_ATTRIB`), and that go away (`IN_DELETE`).
/// Owns the inotify descriptor; `deinit` closes it.
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
    /// The inotify descriptor, for `poll`.
    let fileDescriptor: Int32

    /// Starts watching (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`, `inotify_add_watch`).
    init(directory: String) throws(InputError) {
        let fd = try valueOrErrno("inotify_init1", path: directory) {
            inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        }
        let mask = UInt32(IN_CREATE | IN_ATTRIB | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
        do throws(InputError) {
            _ = try valueOrErrno("inotify_add_watch", path: directory) { inotify_add_watch(fd, directory, mask) }
        } catch {
            close(fd)
            throw error
        }
        self.directory = directory
        fileDescriptor = fd
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every pending inotify event (non-blocking), as changes of node names (`event3`).
    func readChanges() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return changes }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let mask = bytes.loadUnaligned(
                        fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.mask)!, as: UInt32.self)
                    let length = Int(
                        bytes.loadUnaligned(
                            fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.len)!, as: UInt32.self))
                    let nameBytes = bytes[(offset + headerSize)..<min(offset + headerSize + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += headerSize + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        changes.append(.overflowed)
                    } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        changes.append(.created(name))
                    } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                        changes.append(.deleted(name))
                    } else if mask & UInt32(IN_ATTRIB) != 0 {
                        changes.append(.attributesChanged(name))
                    }
                }
            }
        }
    }

    /// The `eventN` nodes now in the directory, in numeric order.
    static func eventNodes(in directory: String) throws(InputError) -> [String] {
        guard let dir = opendir(directory) else {
            throw InputError(operation: "opendir", path: directory, code: errno)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if isEventNode(name) { names.append(name) }
        }
        return names.sorted { (eventNumber($0) ?? 0) < (eventNumber($1) ?? 0) }
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
