/// What a photo's caption says (`--caption`).
public enum CaptionStyle: String, Sendable, CaseIterable {
    /// No caption (the default).
    case none
    /// The child's age on the day the photo was taken.
    case age
    /// The day the photo was taken.
    case date
    /// Both.
    case ageAndDate = "age+date"
}

/// A child whose age the captions give.
public struct Child: Sendable, Equatable {
    /// The name, as the caption shows it; may be empty.
    public var name: String
    /// The day of birth.
    public var birthday: CivilDate

    /// Creates a child.
    public init(name: String, birthday: CivilDate) {
        self.name = name
        self.birthday = birthday
    }
}

/// The caption of a photo: pure, from the day it was taken to words.
public struct CaptionPolicy: Sendable, Equatable {
    /// What the caption says.
    public var style: CaptionStyle
    /// The children, in the order the settings name them (one today; the list leaves room for more).
    public var children: [Child]
    /// The words.
    public var wording: CaptionWording

    /// Creates a policy.
    public init(style: CaptionStyle, children: [Child], wording: CaptionWording = .english) {
        self.style = style
        self.children = children
        self.wording = wording
    }

    /// The caption for a photo taken on `day`; `nil` when there is nothing to say (no caption
    /// asked for, an unknown day, or an age-only caption for a photo from before every birthday).
    public func text(takenOn day: CivilDate?) -> String? {
        guard style != .none, let day else { return nil }
        let ages = style == .date ? nil : ageText(on: day)
        let date = style == .age ? nil : wording.words(day)
        switch (ages, date) {
        case (let ages?, let date?): return ages + wording.dateSeparator + date
        case (let ages?, nil): return ages
        case (nil, let date?): return style == .ageAndDate && !children.isEmpty ? nil : date
        case (nil, nil): return nil
        }
    }

    /// The ages of the children born by `day`, each after its name; `nil` when none was.
    private func ageText(on day: CivilDate) -> String? {
        let parts = children.compactMap { child -> String? in
            guard let age = ChildAge(on: day, bornOn: child.birthday) else { return nil }
            let words = wording.words(age)
            return child.name.isEmpty ? words : child.name + wording.nameSeparator + words
        }
        return parts.isEmpty ? nil : parts.joined(separator: wording.childSeparator)
    }
}
