/// The file formats BabyAlbum recognises, by their bytes.
///
/// Each is offered to a decode worker (PNG, JPEG, WebP, HEIC and HEIF; AVIF when the worker's
/// libheif has an AV1 decoder, else the worker refuses it as unsupported). This process links no
/// decoder: the format is known here by the bytes alone.
public enum PhotoFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PNG: the 8-byte signature.
    case png
    /// JPEG: the start-of-image marker `FF D8 FF`.
    case jpeg
    /// WebP: `RIFF`, a size, `WEBP`.
    case webp
    /// HEIC: an ISO-BMFF `ftyp` box with an HEVC brand (`heic`, `heix`, `hevc`, ...).
    case heic
    /// HEIF without HEVC or AV1 named: `ftyp` brands `mif1`, `msf1`, `mif2`.
    case heif
    /// AVIF: `ftyp` brands `avif`, `avis`.
    case avif

    /// How many leading bytes ``detect(prefix:)`` looks at (enough for an `ftyp` box's brands).
    public static let prefixLength = 64

    /// The name a parent knows ("JPEG", "HEIC").
    public var description: String { rawValue.uppercased() }

    /// The format a file's leading bytes show, or `nil` for anything else (text, an empty file).
    public static func detect(prefix bytes: some Collection<UInt8>) -> PhotoFormat? {
        let head = Array(bytes.prefix(prefixLength))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return isoMediaFormat(head)
    }

    /// The format of the file at `path` by its content, opened as a photo is (see ``PhotoFile``).
    public static func detect(path: String) throws(PhotoError) -> PhotoFormat? {
        try detect(file: PhotoFile(path: path), path: path)
    }

    /// The format of the opened `file` (named `path` in errors) by its content.
    public static func detect(file: borrowing PhotoFile, path: String) throws(PhotoError) -> PhotoFormat? {
        detect(prefix: try file.prefix(prefixLength, path: path))
    }

    /// The format of the opened `file` (named `path` in errors), when its bytes show one;
    /// otherwise the reason why not (empty, or not a photo).
    package static func recognise(_ file: borrowing PhotoFile, path: String) throws(PhotoError) -> PhotoFormat {
        let prefix = try file.prefix(prefixLength, path: path)
        guard let format = detect(prefix: prefix) else {
            throw PhotoError.unrecognized(path: path, isEmpty: prefix.isEmpty)
        }
        return format
    }

    /// The format a file name's extension promises, in any case (`IMG_0001.JPG`, `a.jpeg`), or
    /// `nil` when the extension names none of these formats.
    public init?(fileName: some StringProtocol) {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        let suffix = fileName[fileName.index(after: dot)...].lowercased()
        guard let format = Self.extensions[suffix] else { return nil }
        self = format
    }

    /// Every extension (lower case, no dot) that names one of these formats.
    public static let extensions: [String: PhotoFormat] = [
        "png": .png, "jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "jfif": .jpeg, "webp": .webp,
        "heic": .heic, "heics": .heic, "heif": .heif, "heifs": .heif, "hif": .heif, "avif": .avif, "avifs": .avif,
    ]

    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heifBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]

    /// HEIC, HEIF or AVIF from an `ftyp` box: the major brand first, then the compatible brands.
    private static func isoMediaFormat(_ head: [UInt8]) -> PhotoFormat? {
        guard head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(16, boxSize))
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: end - 3, by: 4) {
            brands.append(String(decoding: head[start..<(start + 4)], as: UTF8.self))
        }
        if heicBrands.contains(brands[0]) { return .heic }
        if avifBrands.contains(brands[0]) { return .avif }
        if brands.contains(where: heicBrands.contains) { return .heic }
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heifBrands.contains) { return .heif }
        return nil
    }
}
