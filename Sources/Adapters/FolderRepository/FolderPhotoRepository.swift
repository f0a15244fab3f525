import AlbumDomain
import Logging

/// A ``PhotoRepository`` over a living folder of photo files: scans it (and its subfolders) in the
/// background, then follows it with inotify and publishes the photo list whenever the set of
/// ready photos changes.
///
/// - A photo is published only once it is complete: closed after writing, renamed into place,
///   or (found by a scan) unchanged for ``FolderWatchTiming/settleTime``.
/// - A photo whose file is replaced leaves the list for one publication and comes back, so the
///   interactor drops a stale prepared frame and gives it a new chance if it failed to decode.
/// - A folder that disappears (a USB stick pulled) is published as `.failed`; it comes back on
///   its own when the folder does.
/// - Hidden files and folders (dot-names), sync tools' temporary files and symbolic link loops
///   are skipped. Photo ids are file paths as bytes, in byte order, so a seed reproduces the same
///   order. Symbolic links to folders are followed, up to ``FolderScanLimits``.
public struct FolderPhotoRepository: PhotoRepository {
    /// The folder.
    public let folder: String
    /// When files are trusted, and how the scan is paced.
    public let timing: FolderWatchTiming
    /// Caps on watched folders and listed photo files.
    public let limits: FolderScanLimits
    private let logger: Logger

    /// Creates a repository for `folder`.
    public init(
        folder: String, logger: Logger = Logger(label: "babyalbum.photos"), timing: FolderWatchTiming = .standard,
        limits: FolderScanLimits = .standard
    ) {
        self.folder = folder
        self.logger = logger
        self.timing = timing
        self.limits = limits
    }

    /// Each call starts its own watcher thread; it stops when the stream's consumer goes away.
    public func photoListStates() -> AsyncStream<PhotoListState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoListState.self)
        let logger = self.logger
        let folder = self.folder
        do throws(FolderError) {
            let watcher = try FolderWatcher(folder: folder, timing: timing, limits: limits, logger: logger) { state in
                switch state {
                case .loaded(let photos): logger.debug("publishing \(photos.count) photos of \(folder)")
                case .failed, .loading: break
                }
                continuation.yield(state)
            }
            continuation.onTermination = { _ in watcher.stopWithoutWaiting() }
        } catch {
            let reason = "cannot watch the photo folder \(PhotoID(folder)): \(error.withoutPath)"
            logger.error("\(reason)")
            continuation.yield(.failed(reason: reason))
            continuation.finish()
        }
        return stream
    }
}
