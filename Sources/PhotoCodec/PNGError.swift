import CPNGCodec

/// Why a PNG could not be read or written. The message is libpng's own where libpng found the
/// problem.
public struct PNGError: Error, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Equatable, Sendable {
        /// The file cannot be opened, read or written.
        case io
        /// The file is empty or not a PNG.
        case notPNG
        /// libpng found the file corrupt or truncated.
        case corrupt
        /// The photo exceeds a limit (`--max-photo-megapixels`, the whole-image budget).
        case tooLarge
        /// Memory ran out.
        case outOfMemory
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The message, for example libpng's "IDAT: CRC error".
    public let message: String
    /// The file concerned.
    public let path: String

    /// Creates an error.
    public init(kind: Kind, message: String, path: String) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    init(status: Int32, message: String, path: String) {
        let kind: Kind
        switch Int(status) {
        case BAPNG_ERROR_IO: kind = .io
        case BAPNG_ERROR_NOT_PNG: kind = .notPNG
        case BAPNG_ERROR_TOO_LARGE: kind = .tooLarge
        case BAPNG_ERROR_NO_MEMORY: kind = .outOfMemory
        default: kind = .corrupt
        }
        self.init(kind: kind, message: message.isEmpty ? "unknown libpng error" : message, path: path)
    }

    public var description: String {
        switch kind {
        case .corrupt: "corrupt PNG (libpng: \(message))"
        default: message
        }
    }
}
