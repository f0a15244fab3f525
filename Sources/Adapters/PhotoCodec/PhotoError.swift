import AlbumDomain

/// Why a photo cannot be shown, in one line a parent can act on.
public struct PhotoError: Error, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Equatable, Sendable {
        /// The file cannot be opened or read.
        case io
        /// A FIFO, a device, a folder: never read, so nothing can block.
        case notRegularFile
        /// The content is none of the recognised formats (empty, text, another image format).
        case unrecognized
        /// A recognised format that BabyAlbum does not decode (AVIF without an AV1 decoder).
        case unsupportedFormat(PhotoFormat)
        /// A valid file of a decoded format using a feature BabyAlbum does not support (12-bit JPEG).
        case unsupportedFeature
        /// The file is corrupt, truncated or damaged (retried later, then skipped).
        case corrupt
        /// Over a limit: the pixel count, the decode-memory budget, the scan count.
        case tooLarge
        /// Memory ran out.
        case outOfMemory
        /// The decode worker crashed, was killed or could not be reached (the reason names the
        /// signal).
        case decoderFailed
        /// The decode worker ran over its CPU time limit or (aborting) its memory limit: the photo
        /// costs more to decode than the slideshow can give it (passed over, not tried again).
        case tooCostly
        /// The decode worker was still decoding at the slideshow's deadline, a wall-clock time
        /// that other work on a busy board stretches: passed over, tried once more later.
        case overDeadline
        /// The decode sandbox refused a system call that a library made while decoding this
        /// photo ("system call 198 (socket)"): a gap in the allow-list for this system's
        /// libraries, the same for every photo that needs it.
        case sandboxRefused(systemCall: String)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The reason, one line, without the path ("12-bit JPEG is not supported").
    public let reason: String
    /// The file concerned.
    public let path: String

    /// Creates an error.
    public init(kind: Kind, reason: String, path: String) {
        self.kind = kind
        self.reason = reason
        self.path = path
    }

    public var description: String { reason }

    /// The skip reason for a recognised format that is not decoded, telling the parent what to do.
    package static func unsupported(_ format: PhotoFormat, path: String) -> PhotoError {
        let reason =
            switch format {
            case .avif:
                "AVIF photo: this libheif has no AV1 decoder; export the photo as JPEG"
            default:
                "\(format) photo: BabyAlbum shows JPEG, PNG, WebP and HEIC; export the photo as JPEG"
            }
        return PhotoError(kind: .unsupportedFormat(format), reason: reason, path: path)
    }

    /// The error for a system call the decode sandbox refused (`systemCall`: "system call 198
    /// (socket)"), which ended the worker.
    package static func sandboxRefused(_ systemCall: String, path: String) -> PhotoError {
        PhotoError(
            kind: .sandboxRefused(systemCall: systemCall),
            reason: "the decode sandbox refused \(systemCall), which this system's libraries make for this photo",
            path: path)
    }

    /// The error for content that no decoder recognises.
    package static func unrecognized(path: String, isEmpty: Bool) -> PhotoError {
        PhotoError(
            kind: .unrecognized, reason: isEmpty ? "empty file" : "not a photo (neither JPEG, PNG, WebP nor HEIF)",
            path: path
        )
    }
}

extension PhotoError: PreparationFailure {
    /// An unsupported format (HEIC, HEIF, AVIF) or feature (a 12-bit JPEG) stays so, and so does
    /// a call the sandbox refuses; a photo over a limit, or that ran the worker out of CPU time
    /// or memory, would cost the same again: the photo is skipped at once instead of being
    /// retried. One still decoding at the slideshow's deadline gets its second try, as a damaged
    /// file does: that deadline is wall-clock time, longer on a busy board.
    public var isLasting: Bool {
        switch kind {
        case .unsupportedFormat, .unsupportedFeature, .sandboxRefused, .tooLarge, .tooCostly, .outOfMemory: true
        default: false
        }
    }
}
