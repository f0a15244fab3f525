import AlbumDomain
import FolderRepository
import PhotoCodec

extension DoctorProbes {
    /// The photo folder, walked once by the watcher's own rules (``FolderWalk``): every photo
    /// file the slideshow would pick up is opened as the slideshow opens it, recognised by its
    /// bytes and decoded (or only its header read) with the slideshow's limits; every other entry
    /// is listed with the reason it is left out. HEIC, HEIF and AVIF files are counted apart from
    /// broken ones, and a file whose content and extension disagree is named (it is shown by its
    /// content).
    public static func photos(_ options: DoctorOptions) -> DoctorPhotoSection {
        let walk = FolderWalk(root: options.photos, limits: options.folderLimits)
        let folder = PhotoID(options.photos).description
        if let failure = walk.failure {
            return DoctorPhotoSection(
                folder: folder, valid: 0, skipped: [], headersOnly: options.headersOnly, failure: failure)
        }
        var found = DoctorPhotoFindings()
        for entry in walk.skipped {
            found.skipped.append(DoctorSkippedFile(path: entry.path.description, reason: entry.reason.description))
            if case .folderLimit = entry.reason { found.limitsReached.insert(entry.reason.description) }
            if case .photoLimit = entry.reason { found.limitsReached.insert(entry.reason.description) }
        }
        for photo in walk.photos { found.check(photo, options) }
        found.skipped.sort { $0.path < $1.path }
        var section = DoctorPhotoSection(
            folder: folder, valid: found.valid, skipped: found.skipped, headersOnly: options.headersOnly,
            failure: nil, notDecoded: found.notDecoded, mismatched: found.mismatched, folders: walk.folders)
        section.warnings += found.limitsReached.sorted().map { "the photo folder has \($0)" }
        return section
    }
}

extension DoctorProbes {
    /// The photos below `folder` that the slideshow would show, by name: the watcher's own walk
    /// (``FolderWalk``: hidden and temporary names left out, links and caps as in the frame)
    /// without the formats it only names (HEIC, HEIF, AVIF). For a USB stick in doctor's list.
    public static func shownPhotoCount(in folder: String) -> Int {
        FolderWalk(root: folder).photos.count {
            PhotoFormat(fileName: String(decoding: $0.bytes, as: UTF8.self))?.isShown == true
        }
    }
}

/// What the photo check found, file by file.
struct DoctorPhotoFindings {
    var valid = 0
    var skipped: [DoctorSkippedFile] = []
    var notDecoded: [DoctorSkippedFile] = []
    var mismatched: [DoctorSkippedFile] = []
    var limitsReached: Set<String> = []

    /// Opens `photo` as the slideshow does, names a content that disagrees with the extension,
    /// and decodes it (or reads its header).
    mutating func check(_ photo: PhotoID, _ options: DoctorOptions) {
        let path = photo.description
        do throws(PhotoError) {
            let file = try PhotoFile(pathBytes: photo.bytes, displayPath: path)
            let content = try PhotoFormat.detect(file: file, path: path)
            let name = String(decoding: photo.bytes, as: UTF8.self)
            if let content, let named = PhotoFormat(fileName: name), named != content {
                mismatched.append(
                    DoctorSkippedFile(path: path, reason: "a \(content) file named as \(named): shown as \(content)"))
            }
            if options.headersOnly {
                _ = try PhotoDecoder.header(of: file, path: path, limits: options.limits)
            } else {
                // Decoding into a small frame reads and checks every row, as the slideshow does.
                _ = try PhotoDecoder.decode(
                    file, path: path, to: FrameSize(width: 32, height: 32), scale: .fit, limits: options.limits)
            }
            valid += 1
        } catch {
            let entry = DoctorSkippedFile(path: path, reason: error.reason)
            if case .unsupportedFormat = error.kind { notDecoded.append(entry) } else { skipped.append(entry) }
        }
    }
}
