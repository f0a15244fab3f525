import AlbumDomain

/// Which names in the photo folder are photos, and which are skipped, and why. The folder
/// watcher and `babyalbum doctor` both decide through ``classify(name:status:)``, so doctor
/// reports exactly what the slideshow leaves out.
///
/// Names are bytes, as `readdir` gives them: a name that is not UTF-8 is a photo like any other.
public enum FolderScan {
    /// The extensions (lower case, no dot) of the files taken as photos, in any case
    /// (`IMG_0001.JPG`). Which format a photo really is, the decoder reads from its bytes; HEIC,
    /// HEIF and AVIF are listed so that they are named with the fix instead of passed over.
    public static let photoExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "webp", "heic", "heif", "avif"]

    /// Whether a file or folder name is skipped: hidden names (dot-names, which include rsync's
    /// `.name.XXXXXX` and Syncthing's `.syncthing.name.tmp`) and other temporary files of copy and
    /// sync tools (`.part`, `.tmp`, `~`, Syncthing's Windows-style `~syncthing~` prefix).
    public static func isIgnored(name: some Collection<UInt8>) -> Bool {
        let name = Array(name)
        return name.first == UInt8(ascii: ".") || name.last == UInt8(ascii: "~") || name.ends(with: ".part")
            || name.ends(with: ".tmp") || name.starts(with: Array("~syncthing~".utf8))
    }

    /// Whether a file name has a photo extension (in any case) and is not ignored.
    public static func isPhoto(name: some Collection<UInt8>) -> Bool {
        let name = Array(name)
        guard !isIgnored(name: name), let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.count <= 4, suffix.allSatisfy({ $0 < 0x80 }) else { return false }
        return photoExtensions.contains(String(decoding: suffix, as: UTF8.self).lowercased())
    }

    /// ``isIgnored(name:)`` for a name that is text.
    public static func isIgnored(name: String) -> Bool { isIgnored(name: Array(name.utf8)) }

    /// ``isPhoto(name:)`` for a name that is text.
    public static func isPhoto(name: String) -> Bool { isPhoto(name: Array(name.utf8)) }

    /// What one folder entry is to the slideshow, from its name and `stat` (links followed).
    public static func classify(name: some Collection<UInt8>, kind: FolderEntryKind) -> FolderEntryVerdict {
        let name = Array(name)
        if isIgnored(name: name) { return .skipped(.hiddenOrTemporary(folder: kind == .folder)) }
        switch kind {
        case .folder: return .folder
        case .other: return .skipped(.notRegularFile)
        case .regular: return isPhoto(name: name) ? .photo : .skipped(.notPhotoName)
        }
    }
}

/// The file type of a folder entry, with symbolic links followed.
public enum FolderEntryKind: Sendable, Equatable {
    /// A regular file.
    case regular
    /// A folder (or a link to one).
    case folder
    /// A FIFO, socket, device…
    case other
}

/// What the scan makes of a folder entry.
public enum FolderEntryVerdict: Sendable, Equatable {
    /// A photo file: listed.
    case photo
    /// A folder: scanned and watched.
    case folder
    /// Left out, and why.
    case skipped(FolderSkipReason)
}

/// Why the scan leaves an entry out; the `description` is the sentence doctor prints.
public enum FolderSkipReason: Sendable, Equatable, CustomStringConvertible {
    /// A hidden (dot) name or a copy or sync tool's temporary file.
    case hiddenOrTemporary(folder: Bool)
    /// A file whose name has no photo extension.
    case notPhotoName
    /// Not a regular file (a FIFO, a socket, a device).
    case notRegularFile
    /// `stat` failed (a dangling symbolic link, no permission), with the error.
    case cannotRead(String)
    /// A folder that cannot be listed, with the error.
    case folderCannotBeRead(String)
    /// The same folder as one already scanned (a symbolic link loop, or two links to one folder).
    case sameFolderAs(String)
    /// The cap on watched folders was reached.
    case folderLimit(Int)
    /// The cap on listed photo files was reached.
    case photoLimit(Int)

    public var description: String {
        switch self {
        case .hiddenOrTemporary(let folder): "hidden or temporary \(folder ? "folder" : "file"): ignored"
        case .notPhotoName:
            "not a photo name (shown: "
                + FolderScan.photoExtensions.sorted().map { "." + $0 }.joined(separator: ", ") + ", in any case)"
        case .notRegularFile: "not a regular file"
        case .cannotRead(let error): "cannot be read: \(error)"
        case .folderCannotBeRead(let error): "folder cannot be read: \(error)"
        case .sameFolderAs(let other): "the same folder as \(other) (symbolic link loop)"
        case .folderLimit(let limit): "more than \(limit) folders: the rest are not watched"
        case .photoLimit(let limit): "more than \(limit) photo files: the rest are left out"
        }
    }
}

/// Caps on what the watcher takes in. Symbolic links to folders are followed, even out of the
/// photo folder; a link to `/usr` would otherwise watch tens of thousands of folders and list
/// system icons. Reaching a cap is logged once and reported by doctor.
public struct FolderScanLimits: Sendable, Equatable {
    /// The most folders watched (the photo folder and its subfolders, links followed).
    public var maxFolders: Int
    /// The most photo files listed.
    public var maxPhotos: Int

    /// Creates limits.
    public init(maxFolders: Int = 10_000, maxPhotos: Int = 100_000) {
        precondition(maxFolders > 0 && maxPhotos > 0, "limits must be positive")
        self.maxFolders = maxFolders
        self.maxPhotos = maxPhotos
    }

    /// The limits `babyalbum` runs with.
    public static let standard = FolderScanLimits()
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: String) -> Bool {
        let tail = Array(suffix.utf8)
        return count >= tail.count && self[(count - tail.count)...].elementsEqual(tail)
    }
}
