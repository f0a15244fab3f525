/// Why a text is not a ``SyncthingDeviceID``.
public enum SyncthingDeviceIDError: Error, Equatable, CustomStringConvertible {
    /// Not 56 letters and digits (dashes and spaces not counted).
    case length(Int)
    /// A character that is not in an ID (A to Z, 2 to 7).
    case character(Character)
    /// The check character of group `group` (1 to 4, each 14 characters) does not match: a typo.
    case checkCharacter(group: Int)

    public var description: String {
        switch self {
        case .length(let count):
            "it has \(count) letters and digits, an ID has 56 (8 groups of 7, as Actions > Show ID shows it)"
        case .character(let character):
            "'\(character.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())' is not in an ID (A to Z, 2 to 7)"
        case .checkCharacter(let group):
            "its check character \(group) of 4 does not match (a typo in characters \(group * 14 - 13) to \(group * 14))"
        }
    }
}
