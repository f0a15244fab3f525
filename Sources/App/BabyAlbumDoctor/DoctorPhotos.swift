import AlbumDomain
import DecodeSandbox
import FolderRepository
import PhotoCodec

extension DoctorProbes {
    /// The photo folder, walked once by the watcher's own rules (``FolderWalk``): every photo
    /// file the slideshow would pick up is opened as the slideshow opens it, recognised by its
    /// bytes and decoded (or only its header read) with the slideshow's limits; every other entry
    /// is listed with the reason it is left out. HEIC, HEIF and AVIF files are counted apart from
    /// broken ones, and a file whose content and extension disagree is named (it is shown by its
    /// content).
    ///
    /// Every folder the slideshow would read is checked (``DistinctFolders``: each real folder
    /// once); the frame is black only when none of them, and no USB stick, has a valid photo.
    public static func photos(_ options: DoctorOptions) -> DoctorPhotoSection {
        let distinct = DistinctFolders([options.photos] + options.extraPhotoFolders)
        let sections = distinct.kept.map { folder(at: $0, options) }
        var section = sections.count == 1 ? sections[0].section : DoctorPhotoSection(combining: sections, options)
        section.warnings += distinct.duplicates.map(\.description)
        section.noteSandboxRefusals(options.decodeWorkers.refusedCalls)
        if section.valid == 0, section.problem != nil, options.stickPhotos > 0 {
            section.warnings.append(
                "\(section.problem ?? ""); but the frame shows the \(options.stickPhotos) photo(s) on USB sticks")
            section.problem = nil
        }
        return section
    }

    /// One photo folder, walked and checked; `failure` when it cannot be read at all.
    static func folder(at path: String, _ options: DoctorOptions) -> (section: DoctorPhotoSection, failure: String?) {
        let walk = FolderWalk(root: path, limits: options.folderLimits)
        let folder = PhotoID(path).description
        if let failure = walk.failure {
            let section = DoctorPhotoSection(
                folder: folder, valid: 0, skipped: [], headersOnly: options.headersOnly, failure: failure)
            return (section, failure)
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
        section.dated = found.dated
        section.colourProfiles = found.colourProfiles
        return (section, nil)
    }
}

extension DoctorProbes {
    /// The photos below `folder` that the slideshow would show, by name: the watcher's own walk
    /// (``FolderWalk``: hidden and temporary names left out, links and caps as in the frame)
    /// of every format it offers to a worker. For a USB stick in doctor's list.
    public static func shownPhotoCount(in folder: String) -> Int {
        FolderWalk(root: folder).photos.count {
            PhotoFormat(fileName: String(decoding: $0.bytes, as: UTF8.self)) != nil
        }
    }
}

/// What the photo check found, file by file.
struct DoctorPhotoFindings {
    var valid = 0
    /// Valid photos with a usable capture date (EXIF or PNG tIME), for captions.
    var dated = 0
    /// Valid photos by the description of their colour profile.
    var colourProfiles: [String: Int] = [:]
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
                    DoctorSkippedFile(
                        path: path,
                        reason: "a \(content) file named as \(named): shown as \(content)"))
            }
            // Through a worker, as the slideshow decodes: the header alone with `--quick`, else a
            // small frame, which reads and checks every row and hands back the captions' metadata.
            let request = DecodeRequest(
                size: FrameSize(width: 32, height: 32), scale: .fit, limits: options.limits,
                deadline: options.decodeDeadline, headerOnly: options.headersOnly)
            let metadata = try options.decodeWorkers.decode(file, path: path, request: request).metadata
            if options.headersOnly {
                valid += 1
                return
            }
            valid += 1
            if case .found = metadata.captureDate { dated += 1 }
            if let profile = metadata.colourProfile {
                colourProfiles[DoctorPhotoSection.profileName(profile, ignored: metadata.colourIgnored), default: 0] +=
                    1
            }
        } catch {
            let entry = DoctorSkippedFile(path: path, reason: error.reason)
            if case .unsupportedFormat = error.kind { notDecoded.append(entry) } else { skipped.append(entry) }
        }
    }
}

extension DoctorPhotoSection {
    /// Makes the photos the decode sandbox refused (`refusals`: photos by system call) the
    /// section's problem: a gap in the allow-list for this system's libraries, which skips every
    /// photo that needs the call.
    mutating func noteSandboxRefusals(_ refusals: [String: Int]) {
        let lines = refusals.sorted { $0.key < $1.key }.map { call, photos in
            "the decode sandbox refuses \(photos) photo\(photos == 1 ? "" : "s"): \(call)"
        }
        guard !lines.isEmpty else { return }
        problem = ([problem].compactMap { $0 } + lines).joined(separator: "; ")
    }

    /// Several folders' sections as one: counts added, lists joined; the folders that cannot be
    /// read are warnings while another can, and the problem only when none can.
    init(combining parts: [(section: DoctorPhotoSection, failure: String?)], _ options: DoctorOptions) {
        let sections = parts.map(\.section)
        let failures = parts.compactMap(\.failure)
        let readable = failures.count < parts.count
        self.init(
            folder: sections.map(\.folder).joined(separator: ", "), valid: sections.reduce(0) { $0 + $1.valid },
            skipped: sections.flatMap(\.skipped), headersOnly: options.headersOnly,
            failure: readable ? nil : failures.joined(separator: "; "),
            notDecoded: sections.flatMap(\.notDecoded), mismatched: sections.flatMap(\.mismatched),
            folders: sections.reduce(0) { $0 + $1.folders })
        dated = sections.reduce(0) { $0 + $1.dated }
        colourProfiles = sections.reduce(into: [:]) { all, part in all.merge(part.colourProfiles, uniquingKeysWith: +) }
        if readable { warnings += failures }
        warnings += sections.flatMap { $0.warnings.filter { $0.hasPrefix("the photo folder has") } }
    }
}
