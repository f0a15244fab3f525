/// One photo file as the readiness model knows it: the folder it is in (the driver's number for
/// that folder) and its path, as bytes, which is also the photo's id. Its name is the path's
/// end, so a listed file costs one array of bytes, not a path and a name apart.
struct FileKey: Hashable, Sendable {
    /// The path (the name alone for a key made with ``init(folder:name:)``).
    let path: [UInt8]
    /// The folder (the driver uses its inotify watch descriptor).
    let folder: Int32

    /// The key of the file at `path` in `folder`.
    init(folder: Int32, path: [UInt8]) {
        (self.folder, self.path) = (folder, path)
    }

    /// A key of a bare name (its ``path`` is the name).
    init(folder: Int32, name: [UInt8]) {
        self.init(folder: folder, path: name)
    }

    /// The name within the folder: the path after its last slash.
    var name: ArraySlice<UInt8> {
        path[(path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...]
    }
}
