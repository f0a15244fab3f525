import CPNGCodec

extension PhotoError {
    /// The PNG codec's error (`BAPNG_ERROR_*`): libpng's own message where libpng found the problem.
    init(pngStatus status: Int32, message: String, path: String) {
        let text = message.isEmpty ? "unknown libpng error" : message
        let kind: Kind
        switch Int(status) {
        case BAPNG_ERROR_IO: kind = .io
        case BAPNG_ERROR_NOT_PNG: kind = .unrecognized
        case BAPNG_ERROR_TOO_LARGE: kind = .tooLarge
        case BAPNG_ERROR_NO_MEMORY: kind = .outOfMemory
        default: kind = .corrupt
        }
        self.init(kind: kind, reason: kind == .corrupt ? "corrupt PNG (libpng: \(text))" : text, path: path)
    }

    /// The same error about `path` (the photo's own path, where the codec saw `/proc/self/fd/N`).
    func about(_ path: String) -> PhotoError { PhotoError(kind: kind, reason: reason, path: path) }
}
