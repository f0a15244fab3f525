import AlbumDomain

/// When a photo was taken, as its camera wrote it: the local day and time, and the offset from
/// UTC when the camera recorded one.
public struct CaptureDate: Equatable, Sendable {
    /// The day, in the camera's local time.
    public var date: CivilDate
    /// Hour (0–23), minute and second, in the camera's local time.
    public var hour: Int, minute: Int, second: Int
    /// Minutes east of UTC (`OffsetTimeOriginal`), when present and well formed.
    public var offsetMinutes: Int?
    /// Where it was read.
    public var source: Source

    /// Where a capture date was read.
    public enum Source: String, Equatable, Sendable {
        /// EXIF `DateTimeOriginal`.
        case exif
        /// PNG `tIME` (the image's last modification; a weaker fallback).
        case pngTime = "PNG tIME"
    }

    /// Creates a capture date.
    public init(date: CivilDate, hour: Int, minute: Int, second: Int, offsetMinutes: Int? = nil, source: Source) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.offsetMinutes = offsetMinutes
        self.source = source
    }

    /// The years a photo may plausibly be dated in: a year 0 or 9999 is a camera's blank field.
    public static let plausibleYears = 1826...2199
}

/// What an EXIF block says about the capture date.
public enum ExifDateResult: Equatable, Sendable {
    /// A usable date.
    case found(CaptureDate)
    /// No `DateTimeOriginal` (or no EXIF at all).
    case absent
    /// A date that is there but cannot be right (corrupt, 31 February, year 0 or 9999); why.
    case unusable(String)
}

/// Reads `DateTimeOriginal` (0x9003) and `OffsetTimeOriginal` (0x9011) from the Exif IFD of an
/// EXIF block: pure, no I/O, safe on hostile bytes.
///
/// The block is a TIFF structure ("II*\0" or "MM\0*", optionally after "Exif\0\0"). Every offset
/// and count is checked against the block before it is read, in either byte order; IFD0 is read
/// once and the Exif IFD once (a pointer back to IFD0 is refused), so no loop is possible, and an
/// IFD with more entries than the block can hold is cut to what it holds.
public enum ExifDateParser {
    /// The capture date of `exif`.
    public static func captureDate(_ exif: [UInt8]) -> ExifDateResult {
        var bytes = exif[...]
        if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes = bytes.dropFirst(6) }
        guard let tiff = TIFFReader(Array(bytes)), let ifd0 = tiff.u32(at: 4) else { return .absent }
        guard let pointer = tiff.entry(0x8769, inIFDAt: Int(ifd0)), pointer.type == 4 || pointer.type == 3,
            let exifIFD = tiff.value(of: pointer), exifIFD != Int(ifd0)
        else { return .absent }
        guard let original = tiff.entry(0x9003, inIFDAt: exifIFD) else { return .absent }
        guard original.type == 2, let text = tiff.ascii(of: original) else {
            return .unusable("DateTimeOriginal is not text")
        }
        guard var date = parse(dateTime: text) else { return .unusable("DateTimeOriginal '\(printable(text))'") }
        if let offset = tiff.entry(0x9011, inIFDAt: exifIFD), offset.type == 2, let text = tiff.ascii(of: offset) {
            date.offsetMinutes = parse(offset: text)
        }
        return .found(date)
    }

    /// "YYYY:MM:DD HH:MM:SS" (dashes are accepted in the date, as some software writes them).
    package static func parse(dateTime text: String) -> CaptureDate? {
        let characters = Array(text.utf8)
        guard characters.count >= 19, characters[10] == UInt8(ascii: " ") else { return nil }
        for index in [4, 7] where characters[index] != UInt8(ascii: ":") && characters[index] != UInt8(ascii: "-") {
            return nil
        }
        for index in [13, 16] where characters[index] != UInt8(ascii: ":") { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in characters[start..<start + length] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            CaptureDate.plausibleYears.contains(year), hour < 24, minute < 60, second <= 60,
            let date = CivilDate(year: year, month: month, day: day)
        else { return nil }
        return CaptureDate(date: date, hour: hour, minute: minute, second: second, source: .exif)
    }

    /// "+HH:MM" or "-HH:MM", at most 14 hours from UTC; `nil` otherwise.
    static func parse(offset text: String) -> Int? {
        let characters = Array(text.utf8)
        guard characters.count >= 6, characters[0] == UInt8(ascii: "+") || characters[0] == UInt8(ascii: "-"),
            characters[3] == UInt8(ascii: ":"),
            let hours = Int(String(decoding: characters[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: characters[4..<6], as: UTF8.self)),
            hours <= 14, minutes < 60
        else { return nil }
        let total = hours * 60 + minutes
        return characters[0] == UInt8(ascii: "-") ? -total : total
    }

    /// Text for a log line: printable ASCII only, at most 40 characters.
    static func printable(_ text: String) -> String {
        String(
            text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
    }
}

/// A bounds-checked view of a TIFF structure in either byte order.
struct TIFFReader {
    let bytes: [UInt8]
    let littleEndian: Bool

    /// One 12-byte IFD entry.
    struct Entry {
        var tag: Int, type: Int, count: Int
        /// Where the entry's 4-byte value field is.
        var fieldOffset: Int
    }

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(at: 2) == 42 else { return nil }
    }

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(at offset: Int) -> UInt32? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        let value = littleEndian ? first | second << 16 : first << 16 | second
        return UInt32(value)
    }

    /// The entry with `tag` in the IFD at `offset`; `nil` when the IFD or the tag is not there.
    func entry(_ tag: Int, inIFDAt offset: Int) -> Entry? {
        guard offset >= 8, let declared = u16(at: offset) else { return nil }
        let fits = (bytes.count - offset - 2) / 12
        for index in 0..<min(declared, fits) {
            let start = offset + 2 + index * 12
            guard let found = u16(at: start), found == tag, let type = u16(at: start + 2),
                let count = u32(at: start + 4)
            else { continue }
            return Entry(tag: found, type: type, count: Int(count), fieldOffset: start + 8)
        }
        return nil
    }

    /// A SHORT or LONG entry's first value.
    func value(of entry: Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        if entry.type == 3 { return u16(at: entry.fieldOffset) }
        return u32(at: entry.fieldOffset).map(Int.init)
    }

    /// An ASCII entry's text, up to its first zero byte; `nil` when it lies outside the block.
    func ascii(of entry: Entry) -> String? {
        guard entry.count >= 1, entry.count <= 256 else { return nil }
        var start = entry.fieldOffset
        if entry.count > 4 {
            guard let pointer = u32(at: entry.fieldOffset) else { return nil }
            start = Int(pointer)
        }
        guard start >= 0, start <= bytes.count - entry.count else { return nil }
        let text = bytes[start..<start + entry.count].prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
    }
}
