/// The photo-folder part of a ``DoctorReport``. Paths are printable: control characters and
/// bytes that are not UTF-8 are escaped (``PhotoID/description``), so a file name cannot forge
/// a line of the report.
public struct DoctorPhotoSection: Codable, Sendable, Equatable {
    /// The folder.
    public var folder: String
    /// How many photos decode.
    public var valid: Int
    /// How many of them have a usable capture date for captions (EXIF `DateTimeOriginal`, or PNG
    /// `tIME`); counted when photos are decoded (not with `--quick`).
    public var dated = 0
    /// How many of them carry each colour profile, by its description (ICC, or made from a PNG's
    /// cICP or cHRM and gAMA; "(ignored)" after one that is not used); counted when photos are
    /// decoded (not with `--quick`).
    public var colourProfiles: [String: Int] = [:]
    /// Every file that is not shown (broken, not a photo, hidden…), with the reason.
    public var skipped: [DoctorSkippedFile]
    /// HEIC, HEIF and AVIF files: recognised, not decoded, counted apart from broken files; the
    /// reason says what to do.
    public var notDecoded: [DoctorSkippedFile]
    /// Files whose content and extension disagree (shown by their content).
    public var mismatched: [DoctorSkippedFile]
    /// How many folders the slideshow would watch (the photo folder included).
    public var folders: Int
    /// Whether only headers were read (`--quick`) instead of decoding every photo.
    public var headersOnly: Bool
    /// What stops the frame, if anything (no folder, no valid photo).
    public var problem: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// Derives ``problem`` and ``warnings``; `failure` is why the folder cannot be read at all.
    public init(
        folder: String, valid: Int, skipped: [DoctorSkippedFile], headersOnly: Bool, failure: String?,
        notDecoded: [DoctorSkippedFile] = [], mismatched: [DoctorSkippedFile] = [], folders: Int = 0
    ) {
        self.folder = folder
        self.valid = valid
        self.skipped = skipped
        self.notDecoded = notDecoded
        self.mismatched = mismatched
        self.folders = folders
        self.headersOnly = headersOnly
        var warnings: [String] = []
        if let failure {
            problem = failure
        } else if valid == 0 {
            problem =
                "no valid photo in \(folder): the frame would stay black "
                + "(copy JPEG, PNG, WebP, HEIC, HEIF or AVIF photos into it)"
        } else {
            problem = nil
        }
        if failure == nil, !skipped.isEmpty {
            warnings.append("\(skipped.count) file(s) in \(folder) are skipped (listed under Photos)")
        }
        if !notDecoded.isEmpty {
            warnings.append(
                "\(notDecoded.count) HEIC/HEIF/AVIF file(s) are not shown: export them as JPEG (on the iPhone, "
                    + "Settings > Camera > Formats > Most Compatible makes new photos JPEG)")
        }
        if !mismatched.isEmpty {
            warnings.append("\(mismatched.count) file(s) have an extension that does not match their content")
        }
        self.warnings = warnings
    }
}
