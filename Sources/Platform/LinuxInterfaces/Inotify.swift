#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An inotify instance (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`). Owns the descriptor (a
/// ``FileDescriptor``, closed when the instance ends).
public final class Inotify {
    /// A watch descriptor, as `inotify_add_watch` returns it.
    public struct Watch: Hashable, Sendable, CustomStringConvertible {
        /// The C `int wd`.
        public var rawValue: Int32
        public var description: String { "wd\(rawValue)" }

        /// A watch from its descriptor number.
        public init(rawValue: Int32) { self.rawValue = rawValue }
    }

    /// Event bits (`uint32_t mask` of `struct inotify_event`, and the watch mask).
    public struct Mask: OptionSet, Sendable {
        public var rawValue: UInt32

        /// Creates a mask from its bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `IN_MODIFY`
        public static let modify = Mask(rawValue: UInt32(IN_MODIFY))
        /// `IN_ATTRIB`
        public static let attributes = Mask(rawValue: UInt32(IN_ATTRIB))
        /// `IN_CLOSE_WRITE`
        public static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
        /// `IN_MOVED_FROM`
        public static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
        /// `IN_MOVED_TO`
        public static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
        /// `IN_CREATE`
        public static let create = Mask(rawValue: UInt32(IN_CREATE))
        /// `IN_DELETE`
        public static let delete = Mask(rawValue: UInt32(IN_DELETE))
        /// `IN_DELETE_SELF`
        public static let deleteSelf = Mask(rawValue: UInt32(IN_DELETE_SELF))
        /// `IN_MOVE_SELF`
        public static let moveSelf = Mask(rawValue: UInt32(IN_MOVE_SELF))
        /// `IN_UNMOUNT`: the file system holding the watched object was unmounted.
        public static let unmount = Mask(rawValue: UInt32(IN_UNMOUNT))
        /// `IN_Q_OVERFLOW`: events were lost.
        public static let overflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
        /// `IN_IGNORED`: the watch is gone.
        public static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
        /// `IN_ISDIR`: the event's subject is a directory.
        public static let isDirectory = Mask(rawValue: UInt32(IN_ISDIR))
        /// `IN_ONLYDIR`: watch only if the path is a directory.
        public static let onlyDirectory = Mask(rawValue: UInt32(IN_ONLYDIR))
    }

    /// One `struct inotify_event`.
    public struct Event: Sendable {
        /// `wd`: the watch the event belongs to.
        public var watch: Watch
        /// `mask`: what happened.
        public var mask: Mask
        /// `cookie`: pairs `IN_MOVED_FROM` with `IN_MOVED_TO`.
        public var cookie: UInt32
        /// The entry's name within the watched directory, as the kernel gives it (bytes, not
        /// always UTF-8); empty for events on the directory itself.
        public var nameBytes: [UInt8]
        /// ``nameBytes`` decoded as UTF-8, for names that are text (device nodes).
        public var name: String { String(decoding: nameBytes, as: UTF8.self) }
    }

    private let file: FileDescriptor
    /// The descriptor, for `poll`.
    public var fileDescriptor: Int32 { file.rawValue }
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    public init() throws(SystemCallFailure) {
        let descriptor = try valueOrErrno("inotify_init1", path: "inotify") {
            inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        }
        file = FileDescriptor(adopting: descriptor, path: "inotify")
    }

    /// `inotify_add_watch`. Watching an object already watched returns its existing watch.
    public func addWatch(_ path: String, mask: Mask) throws(SystemCallFailure) -> Watch {
        Watch(
            rawValue: try valueOrErrno("inotify_add_watch", path: path) {
                inotify_add_watch(fileDescriptor, path, mask.rawValue)
            })
    }

    /// `inotify_add_watch` on a path given as bytes (no terminating zero).
    public func addWatch(pathBytes path: some Collection<UInt8>, mask: Mask) throws(SystemCallFailure) -> Watch {
        let cPath = Array(path) + [0]
        let fd = fileDescriptor
        return Watch(
            rawValue: try valueOrErrno("inotify_add_watch", path: String(decoding: path, as: UTF8.self)) {
                cPath.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { inotify_add_watch(fd, $0.baseAddress!, mask.rawValue) }
                }
            })
    }

    /// `inotify_rm_watch`; a watch the kernel already dropped is fine.
    public func removeWatch(_ watch: Watch) {
        _ = inotify_rm_watch(fileDescriptor, watch.rawValue)
    }

    /// Reads every pending event without blocking (`read` until `EAGAIN`).
    public func readEvents() -> [Event] {
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
                    let name = Array(nameBytes.prefix { $0 != 0 })
                    events.append(
                        Event(watch: Watch(rawValue: wd), mask: Mask(rawValue: mask), cookie: cookie, nameBytes: name))
                    offset += headerSize + length
                }
            }
        }
    }
}
