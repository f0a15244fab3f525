import AlbumDomain
import FolderRepository
import Logging
import PhotoSources

extension SlideshowConfiguration {
    /// The photo repository the slideshow reads: the photo folder alone, or every `--photos`
    /// folder and the USB sticks mounted below ``stickRoot``, combined into one list.
    func photoRepository(logger: Logger) -> any PhotoRepository {
        let folders = [photos] + extraPhotoFolders
        if folders.count == 1, stickRoot == nil { return FolderPhotoRepository(folder: photos, logger: logger) }
        return CombinedPhotoRepository(
            folders: folders, stickRoot: stickRoot, stickPhotos: stickPhotos, logger: logger
        ) { folder in
            FolderPhotoRepository(folder: folder, logger: logger)
        }
    }
}
