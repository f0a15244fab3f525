import LinuxInterfaces
import Synchronization

/// Writes what every live ``FileShuffleMemory`` holds when the process exits (`exit`, or a
/// return from `main`), through one `atexit` handler. Each memory's lock is taken, so a save in
/// progress on another thread ends first, and its temporary file is renamed rather than left
/// behind; the memory then stops writing.
enum ExitFlush {
    private struct Entry {
        weak var memory: FileShuffleMemory?
    }

    private static let entries = Mutex<(registered: Bool, list: [ObjectIdentifier: Entry])>((false, [:]))

    static func register(_ memory: FileShuffleMemory) {
        let first = entries.withLock { entries in
            entries.list[ObjectIdentifier(memory)] = Entry(memory: memory)
            defer { entries.registered = true }
            return !entries.registered
        }
        if first { ExitHandlers.register { ExitFlush.closeAll() } }
    }

    static func unregister(_ memory: FileShuffleMemory) {
        _ = entries.withLock { $0.list.removeValue(forKey: ObjectIdentifier(memory)) }
    }

    private static func closeAll() {
        let memories = entries.withLock { $0.list.values.compactMap(\.memory) }
        for memory in memories { memory.close() }
    }
}
