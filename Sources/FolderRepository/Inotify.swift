#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An inotify instance (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`). Owns the descriptor;
/// `deinit` closes it.
final class Inotify {
    /// A watch descriptor, as `inotify_add_watch` returns it.
    struct Watch: Hashable, Sendable, CustomStringConvertible {
        /// The C `int wd`.
        var rawValue: Int32
        var description: String { "wd\(rawValue)" }
    }

    /// Event bits (`uint32_t mask` of `struct inotify_event`, and the watch mask).
    struct Mask: OptionSet, Sendable {
        var rawValue: UInt32

        /// `IN_MODIFY`
        static let modify = Mask(rawValue: UInt32(IN_MODIFY))
        /// `IN_ATTRIB`
        static let attributes = Mask(rawValue: UInt32(IN_ATTRIB))
        /// `IN_CLOSE_WRITE`
        static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
        /// `IN_MOVED_FROM`
        static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
        /// `IN_MOVED_TO`
        static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
        /// `IN_CREATE`
        static let create = Mask(rawValue: UInt32(IN_CREATE))
        /// `IN_DELETE`
        static let delete = Mask(rawValue: UInt32(IN_DELETE))
        /// `IN_DELETE_SELF`
        static let deleteSelf = Mask(rawValue: UInt32(IN_DELETE_SELF))
        /// `IN_MOVE_SELF`
        static let moveSelf = Mask(rawValue: UInt32(IN_MOVE_SELF))
        /// `IN_UNMOUNT`: the file system holding the watched object was unmounted.
        static let unmount = Mask(rawValue: UInt32(IN_UNMOUNT))
        /// `IN_Q_OVERFLOW`: events were lost.
        static let overflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
        /// `IN_IGNORED`: the watch is gone.
        static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
        /// `IN_ISDIR`: the event's subject is a directory.
        static let isDirectory = Mask(rawValue: UInt32(IN_ISDIR))
        /// `IN_ONLYDIR`: watch only if the path is a directory.
        static let onlyDirectory = Mask(rawValue: UInt32(IN_ONLYDIR))
    }

    /// One `struct inotify_event`.
    struct Event: Sendable {
        var watch: Watch
        var mask: Mask
        var cookie: UInt32
        /// The entry's name within the watched directory; empty for events on the directory itself.
        var name: String
    }

    /// The descriptor, for `poll`.
    let fileDescriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    init() throws(FolderError) {
        fileDescriptor = try valueOrErrno("inotify_init1", path: "inotify") {
            inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        }
    }

    deinit {
        close(fileDescriptor)
    }

    /// `inotify_add_watch`. Watching an object already watched returns its existing watch.
    func addWatch(_ path: String, mask: Mask) throws(FolderError) -> Watch {
        Watch(
            rawValue: try valueOrErrno("inotify_add_watch", path: path) {
                inotify_add_watch(fileDescriptor, path, mask.rawValue)
            })
    }

    /// `inotify_rm_watch`; a watch the kernel already dropped is fine.
    func removeWatch(_ watch: Watch) {
        _ = inotify_rm_watch(fileDescriptor, watch.rawValue)
    }

    /// Reads every pending event without blocking (`read` until `EAGAIN`).
    func readEvents() -> [Event] {
        var events: [Event] = []
        let fd = fileDescriptor
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return events }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let headerSize = MemoryLayout<inotify_event>.size
                while offset + headerSize <= count {
                    let wd = bytes.loadUnaligned(
                        fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.wd)!, as: Int32.self)
                    let mask = bytes.loadUnaligned(
                        fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.mask)!, as: UInt32.self)
                    let cookie = bytes.loadUnaligned(
                        fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.cookie)!, as: UInt32.self)
                    let length = Int(
                        bytes.loadUnaligned(
                            fromByteOffset: offset + MemoryLayout.offset(of: \inotify_event.len)!, as: UInt32.self))
                    let nameBytes = bytes[(offset + headerSize)..<min(offset + headerSize + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    events.append(
                        Event(watch: Watch(rawValue: wd), mask: Mask(rawValue: mask), cookie: cookie, name: name))
                    offset += headerSize + length
                }
            }
        }
    }
}

/// A self-pipe (`pipe`, both ends `FD_CLOEXEC`) that wakes the watcher thread out of `poll` when
/// it must stop (Glibc's module exports neither `eventfd` nor `pipe2`). Owns both ends.
final class Wakeup: Sendable {
    /// The read end, for `poll`.
    let fileDescriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    init() throws(FolderError) {
        var ends: [Int32] = [-1, -1]
        _ = try valueOrErrno("pipe", path: "wake-up pipe") { pipe(&ends) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(writeEnd)
        close(fileDescriptor)
    }

    /// Makes the read end readable.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
