import AlbumDomain

/// What a photo file says about itself besides its pixels, read in the same pass as the decode
/// (plain values, so that a decode in another process can hand them back).
public struct PhotoMetadata: Equatable, Sendable {
    /// The EXIF data as TIFF bytes ("II*\0" or "MM\0*"; a leading "Exif\0\0" is accepted too):
    /// PNG eXIf (its first ``exifCapacity`` bytes); nil when there is none.
    public var exif: [UInt8]?
    /// The ICC profile; nil when there is none.
    public var icc: [UInt8]?
    /// PNG `tIME`, the image's last modification, when it is a real time.
    public var pngTime: CaptureDate?
    /// The embedded ICC profile's description (possibly empty); nil when the photo has no profile.
    public var colourProfile: String?
    /// Why the embedded ICC profile was ignored (the photo is shown as sRGB); nil when it was used.
    public var colourIgnored: String?

    /// Creates metadata.
    public init(
        exif: [UInt8]? = nil, icc: [UInt8]? = nil, pngTime: CaptureDate? = nil, colourProfile: String? = nil,
        colourIgnored: String? = nil
    ) {
        self.exif = exif
        self.icc = icc
        self.pngTime = pngTime
        self.colourProfile = colourProfile
        self.colourIgnored = colourIgnored
    }

    /// The one line about a photo named `name` whose colour profile was ignored; nil otherwise.
    public func colourWarning(name: String) -> String? {
        guard let colourIgnored else { return nil }
        let profile = colourProfile.map { $0.isEmpty ? "" : " \"\($0)\"" } ?? ""
        return "\(name): colour profile\(profile) ignored (\(colourIgnored)); shown as sRGB"
    }

    /// The line naming the colour profile a photo named `name` carries and that is used
    /// (`NAME: colour profile "Display P3"`); nil for an untagged photo or an ignored profile.
    public func colourNote(name: String) -> String? {
        guard let colourProfile, colourIgnored == nil else { return nil }
        return "\(name): colour profile \"\(colourProfile)\""
    }

    /// The most EXIF bytes kept: the dates sit in the first few hundred bytes (IFD0 and the Exif
    /// IFD come before maker notes and the thumbnail).
    public static let exifCapacity = 64 * 1024

    /// When the photo was taken: EXIF `DateTimeOriginal`, else PNG `tIME`. An EXIF date that is
    /// there but unusable stays unusable (no fallback: the file is suspect).
    public var captureDate: ExifDateResult {
        let exifDate = exif.map(ExifDateParser.captureDate) ?? .absent
        guard exifDate == .absent, let pngTime else { return exifDate }
        return .found(pngTime)
    }

    /// A tIME chunk's fields as a capture date; `nil` when they are no real time.
    static func pngTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> CaptureDate? {
        guard CaptureDate.plausibleYears.contains(year), hour < 24, minute < 60, second <= 60,
            let date = CivilDate(year: year, month: month, day: day)
        else { return nil }
        return CaptureDate(date: date, hour: hour, minute: minute, second: second, offsetMinutes: 0, source: .pngTime)
    }
}
