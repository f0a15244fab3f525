import LinuxInterfaces

/// Photo folders, each real folder once: the same folder spelled differently (`A`, `./A`, an
/// absolute path, a symbolic link to it) is the same device and inode, and a folder inside
/// another is already read with it, so each photo is shown once a round, not once per spelling.
/// The slideshow and `doctor` both use it, so they read the same folders.
public struct DistinctFolders: Sendable, Equatable {
    /// A folder left out, and the kept folder that already covers it.
    public struct Duplicate: Sendable, Equatable, CustomStringConvertible {
        /// The folder as given.
        public var folder: String
        /// The kept folder that covers it.
        public var keptFolder: String
        /// Whether it lies inside the kept folder (else it is the same folder).
        public var isInside: Bool

        /// Creates a duplicate.
        public init(folder: String, keptFolder: String, isInside: Bool) {
            self.folder = folder
            self.keptFolder = keptFolder
            self.isInside = isInside
        }

        public var description: String {
            let relation = isInside ? "is inside" : "is the same folder as"
            return "photo folder '\(folder)' \(relation) '\(keptFolder)': its photos are read once"
        }
    }

    /// The folders read, in the order given.
    public private(set) var kept: [String] = []
    /// The folders left out.
    public private(set) var duplicates: [Duplicate] = []

    private struct Identity: Equatable {
        var path: String
        var real: String?
        var device: UInt64 = 0
        var inode: UInt64 = 0
    }

    /// Keeps each real folder of `folders` once; a folder that does not exist is kept as given
    /// (its reader reports it), compared to the others by its spelling only.
    public init(_ folders: [String]) {
        var identities: [Identity] = []
        for folder in folders {
            let identity = Self.identity(folder)
            if let same = identities.firstIndex(where: { Self.same($0, identity) }) {
                duplicates.append(Duplicate(folder: folder, keptFolder: kept[same], isInside: false))
            } else if let outer = identities.firstIndex(where: { Self.inside(identity, $0) }) {
                duplicates.append(Duplicate(folder: folder, keptFolder: kept[outer], isInside: true))
            } else {
                // Kept folders inside this one give way to it, which reads them too.
                let inner = identities.indices.filter { Self.inside(identities[$0], identity) }
                for index in inner {
                    duplicates.append(Duplicate(folder: kept[index], keptFolder: folder, isInside: true))
                }
                let at = inner.first ?? kept.count
                for index in inner.reversed() {
                    kept.remove(at: index)
                    identities.remove(at: index)
                }
                kept.insert(folder, at: at)
                identities.insert(identity, at: at)
            }
        }
    }

    private static func identity(_ folder: String) -> Identity {
        var identity = Identity(path: folder)
        guard let resolved = resolvedPath(folder),
            let status = try? PathStatus(pathBytes: Array(resolved.utf8))
        else { return identity }
        identity.real = resolved
        identity.device = status.device
        identity.inode = status.inode
        return identity
    }

    private static func same(_ a: Identity, _ b: Identity) -> Bool {
        guard a.real != nil, b.real != nil else { return a.path == b.path }
        return a.device == b.device && a.inode == b.inode
    }

    /// Whether `a` lies strictly inside `b`, by their real paths.
    private static func inside(_ a: Identity, _ b: Identity) -> Bool {
        guard let inner = a.real, let outer = b.real, inner != outer else { return false }
        return inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }
}
