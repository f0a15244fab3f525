import AlbumDomain
import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CaptionStyle: ExpressibleByArgument {}

/// The checks of `--name`, `--birthday` and `--caption`, one reason each.
enum CaptionOptions {
    /// The longest name a caption shows.
    static let maxNameLength = 40

    /// The children of `names` and `birthdays` (paired in order; one of each today), checked:
    /// a birthday must be a real day, not in the future (`today`).
    static func children(names: [String], birthdays: [String], today: CivilDate) throws -> [Child] {
        for name in names {
            guard name.count <= maxNameLength,
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw ValidationError(
                    "the name '\(name.quotedForMessage())' is too long or has control characters (at most 40 letters)")
            }
        }
        return try birthdays.enumerated().map { index, text in
            guard let birthday = CivilDate(iso: text) else {
                throw ValidationError(
                    "the birthday '\(text)' is not a day of the calendar: use YYYY-MM-DD, for example 2024-03-10")
            }
            guard birthday <= today else {
                throw ValidationError("the birthday \(text) is in the future (today is \(today))")
            }
            return Child(name: index < names.count ? names[index] : "", birthday: birthday)
        }
    }

    /// The caption policy, checked: an age needs a birthday.
    static func policy(style: CaptionStyle, children: [Child]) throws -> CaptionPolicy {
        if style == .age || style == .ageAndDate, children.isEmpty {
            throw ValidationError("--caption \(style.rawValue) needs the child's --birthday (YYYY-MM-DD)")
        }
        return CaptionPolicy(style: style, children: children)
    }

    /// Today in the frame's local time zone.
    static var today: CivilDate {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CivilDate(year: 1970, month: 1, day: 1)!
    }
}
