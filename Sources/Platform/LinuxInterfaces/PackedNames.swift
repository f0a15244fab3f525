#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Names packed end to end in one buffer: a folder of 10,000 photos is two allocations, not
/// 10,000 (each a heap block with an array header), and nothing is left scattered on the heap
/// once the list is dropped. Each name is an `ArraySlice` of the buffer.
public struct PackedNames: RandomAccessCollection, Sendable {
    /// Every name, end to end.
    private var bytes: [UInt8] = []
    /// Where each name ends in ``bytes``.
    private var ends: [Int] = []

    /// An empty list.
    public init() {}

    /// The first index (0).
    public var startIndex: Int { 0 }
    /// One past the last index.
    public var endIndex: Int { ends.count }

    /// The name at `index`.
    public subscript(index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Appends `name`.
    public mutating func append(_ name: some Collection<UInt8>) {
        bytes += name
        ends.append(bytes.count)
    }
}

/// Lists a directory's entry names as the bytes `readdir` gives (`opendir`, `readdir`), without
/// `.` and `..`, packed in one buffer (see ``directoryEntryNames(_:)``).
public func packedDirectoryEntryNames(_ path: some Collection<UInt8>) throws(SystemCallFailure) -> PackedNames {
    let cPath = Array(path) + [0]
    guard
        let directory = cPath.withUnsafeBufferPointer({
            $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        })
    else {
        throw SystemCallFailure(operation: "opendir", path: String(decoding: path, as: UTF8.self), code: errno)
    }
    defer { closedir(directory) }
    var names = PackedNames()
    while let entry = readdir(directory) {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let name = raw[..<(raw.firstIndex(of: 0) ?? raw.count)]
            if !name.elementsEqual([0x2E]) && !name.elementsEqual([0x2E, 0x2E]) { names.append(name) }
        }
    }
    return names
}
