import AlbumDomain
import Foundation
import Logging

/// A ``PhotoRepository`` over a folder of PNG files: scans the folder (and its subfolders) in the
/// background and publishes the list with its loading state.
///
/// Hidden files and folders (dot-names) and the temporary files of sync tools are skipped. Photo
/// ids are file paths, in sorted order, so a seed reproduces the same order.
public struct FolderPhotoRepository: PhotoRepository {
    /// The folder.
    public let folder: String
    private let logger: Logger

    /// Creates a repository for `folder`.
    public init(folder: String, logger: Logger = Logger(label: "babyalbum.photos")) {
        self.folder = folder
        self.logger = logger
    }

    public func photoListStates() -> AsyncStream<PhotoListState> {
        let folder = self.folder
        let logger = self.logger
        return AsyncStream { continuation in
            continuation.yield(.loading)
            let scan = Task.detached {
                let state = FolderScan.scan(folder)
                switch state {
                case .loaded(let photos):
                    logger.info("found \(photos.count) photos in \(folder)")
                case .failed(let reason):
                    logger.error("cannot read the photo folder: \(reason)")
                case .loading:
                    break
                }
                continuation.yield(state)
            }
            continuation.onTermination = { _ in scan.cancel() }
        }
    }
}

/// Lists the photo files of a folder.
public enum FolderScan {
    /// Whether a file or folder name is skipped: hidden names and sync tools' temporary files.
    public static func isIgnored(name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".part") || name.hasSuffix(".tmp")
            || name.hasPrefix(".syncthing.")
    }

    /// Whether a file name looks like a PNG photo.
    public static func isPhoto(name: String) -> Bool {
        !isIgnored(name: name) && name.lowercased().hasSuffix(".png")
    }

    /// Scans `folder` recursively.
    public static func scan(_ folder: String) -> PhotoListState {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            return .failed(reason: "the photo folder \(folder) does not exist")
        }
        guard isDirectory.boolValue else {
            return .failed(reason: "\(folder) is not a folder")
        }
        guard manager.isReadableFile(atPath: folder), let names = try? manager.contentsOfDirectory(atPath: folder) else {
            return .failed(reason: "the photo folder \(folder) cannot be read (permission denied?)")
        }
        var photos: [Photo] = []
        var visited: Set<String> = []
        collect(folder, names: names, into: &photos, visited: &visited)
        return .loaded(photos.sorted { $0.id < $1.id })
    }

    private static func collect(_ folder: String, names: [String], into photos: inout [Photo], visited: inout Set<String>) {
        let manager = FileManager.default
        // Symlink loops: each real folder is visited once.
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else { return }
        for name in names where !isIgnored(name: name) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if let children = try? manager.contentsOfDirectory(atPath: path) {
                    collect(path, names: children, into: &photos, visited: &visited)
                }
            } else if isPhoto(name: name) {
                photos.append(Photo(id: path))
            }
        }
    }
}
