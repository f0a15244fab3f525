import AlbumDomain
import LinuxInterfaces

/// One walk over the photo folder by the watcher's rules, for `babyalbum doctor`: every entry is
/// classified by ``FolderScan/classify(name:kind:)``, folders are followed through symbolic
/// links once each (by device and inode), and the caps of ``FolderScanLimits`` apply, so the
/// walk lists exactly the photos the slideshow would and says why it leaves out everything else.
/// Paths are bytes from `readdir` to `stat`, as in the watcher.
public struct FolderWalk: Sendable {
    /// An entry left out, and why.
    public struct Skipped: Sendable, Equatable {
        /// The path, as bytes.
        public var path: PhotoID
        /// Why.
        public var reason: FolderSkipReason
    }

    /// The photo files, in byte order.
    public private(set) var photos: [PhotoID] = []
    /// Everything left out, in the order met.
    public private(set) var skipped: [Skipped] = []
    /// How many folders are watched (the photo folder included).
    public private(set) var folders = 0
    /// Why the photo folder itself cannot be read, when it cannot.
    public private(set) var failure: String?

    /// Walks `root` breadth first, as the watcher scans it.
    public init(root: String, limits: FolderScanLimits = .standard) {
        var path = Array(root.utf8)
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        let text = PhotoID(bytes: path).description
        let status: FileStatus
        do throws(FolderError) {
            status = try FileStatus(pathBytes: path)
        } catch {
            failure =
                error.isMissing
                ? "the photo folder \(text) does not exist"
                : "the photo folder \(text) cannot be read: \(error.withoutPath)\(permissionObstacleNote(path))"
            return
        }
        guard status.kind == .directory else {
            failure = "\(text) is not a folder"
            return
        }
        guard (try? directoryEntryNames(path)) != nil else {
            failure = "the photo folder \(text) cannot be read (permission denied? run doctor with sudo)"
            return
        }
        walk(from: path, status: status, limits: limits)
        photos.sort()
    }

    private mutating func walk(from root: [UInt8], status: FileStatus, limits: FolderScanLimits) {
        var seen: [FileIdentity: [UInt8]] = [status.identity: root]
        var queue = [root]
        var next = 0
        folders = 1
        while next < queue.count {
            let folder = queue[next]
            next += 1
            let names: [[UInt8]]
            do throws(FolderError) {
                names = try directoryEntryNames(folder).sorted { $0.lexicographicallyPrecedes($1) }
            } catch {
                skipped.append(Skipped(path: PhotoID(bytes: folder), reason: .folderCannotBeRead(error.withoutPath)))
                continue
            }
            for name in names {
                let path = joinPath(folder, name)
                guard let entry = look(at: path, name: name) else { continue }
                switch entry {
                case .folder(let status):
                    if let other = seen[status.identity] {
                        skip(path, .sameFolderAs(PhotoID(bytes: other).description))
                    } else if folders >= limits.maxFolders {
                        skip(path, .folderLimit(limits.maxFolders))
                    } else {
                        seen[status.identity] = path
                        folders += 1
                        queue.append(path)
                    }
                case .photo:
                    if photos.count >= limits.maxPhotos {
                        skip(path, .photoLimit(limits.maxPhotos))
                    } else {
                        photos.append(PhotoID(bytes: path))
                    }
                }
            }
        }
    }

    private enum Entry {
        case folder(FileStatus)
        case photo
    }

    /// Classifies one entry; records it and returns `nil` when it is skipped.
    private mutating func look(at path: [UInt8], name: [UInt8]) -> Entry? {
        let status: FileStatus
        do throws(FolderError) {
            status = try FileStatus(pathBytes: path)
        } catch {
            skip(path, .cannotRead(error.withoutPath))
            return nil
        }
        switch FolderScan.classify(name: name, kind: status.kind.entryKind) {
        case .folder: return .folder(status)
        case .photo: return .photo
        case .skipped(let reason):
            skip(path, reason)
            return nil
        }
    }

    private mutating func skip(_ path: [UInt8], _ reason: FolderSkipReason) {
        skipped.append(Skipped(path: PhotoID(bytes: path), reason: reason))
    }
}
