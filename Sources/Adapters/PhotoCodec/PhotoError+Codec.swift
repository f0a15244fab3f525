import CPhotoCodecCore

extension PhotoError {
    /// The error a codec's `status` (`BAPHOTO_ERROR_*`, the one error enum of every C codec and of
    /// the decode worker's reply) and `reason` describe; nil for `BAPHOTO_OK`.
    package init?(codecStatus status: Int32, reason: String, path: String) {
        guard status != Int32(BAPHOTO_OK) else { return nil }
        let kind: Kind =
            switch Int(status) {
            case BAPHOTO_ERROR_IO: .io
            case BAPHOTO_ERROR_WRONG_FORMAT: .unrecognized
            case BAPHOTO_ERROR_TOO_LARGE: .tooLarge
            case BAPHOTO_ERROR_NO_MEMORY: .outOfMemory
            case BAPHOTO_ERROR_UNSUPPORTED, BAPHOTO_ERROR_NO_DECODER: .unsupportedFeature
            default: .corrupt
            }
        self.init(kind: kind, reason: reason.isEmpty ? "unknown decoder error" : reason, path: path)
    }

    /// Throws the error a codec's `status` and `message` (its `error` buffer) describe, if any.
    package static func check(codecStatus status: Int32, message: [CChar], path: String) throws(PhotoError) {
        if let error = PhotoError(codecStatus: status, reason: String(cString: message), path: path) { throw error }
    }
}
