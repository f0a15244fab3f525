import AlbumDomain
import FolderRepository
import Logging
import PhotoSources

extension SlideshowConfiguration {
    /// The photo repository the slideshow reads: the photo folder alone, or every `--photos`
    /// folder and the USB sticks mounted below ``stickRoot``, combined into one list. Each real
    /// folder is read once (``DistinctFolders``), however it is spelled.
    func photoRepository(logger: Logger) -> any PhotoRepository {
        let distinct = DistinctFolders([photos] + extraPhotoFolders)
        for duplicate in distinct.duplicates { logger.notice("\(duplicate)") }
        let folders = distinct.kept
        if folders.count == 1, stickRoot == nil { return FolderPhotoRepository(folder: folders[0], logger: logger) }
        return CombinedPhotoRepository(
            folders: folders, stickRoot: stickRoot, stickPhotos: stickPhotos, logger: logger
        ) { folder in
            FolderPhotoRepository(folder: folder, logger: logger)
        }
    }
}
