/// A Syncthing device ID as Syncthing shows it (*Actions → Show ID*): 56 letters and digits in 8
/// groups of 7, whose 14th, 28th, 42nd and 56th characters are Luhn check characters of the 13
/// before them (base 32, Syncthing's variant). Parsed as Syncthing parses it: any case, with or
/// without dashes or spaces, `0`, `1` and `8` read as `O`, `I` and `B`.
public struct SyncthingDeviceID: Sendable, Equatable, CustomStringConvertible {
    /// The ID in Syncthing's own form, `XXXXXXX-XXXXXXX-…` (8 groups of 7, upper case).
    public let description: String

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".unicodeScalars)

    /// Parses `text`; throws a ``SyncthingDeviceIDError`` that says what is wrong with it.
    public init(parsing text: String) throws(SyncthingDeviceIDError) {
        let characters = Self.normalized(text)
        guard characters.count == 56 else { throw .length(characters.count) }
        var values: [Int] = []
        for character in characters {
            guard let value = Self.alphabet.firstIndex(of: character) else { throw .character(Character(character)) }
            values.append(value)
        }
        for group in 0..<4 {
            let start = group * 14
            let check = Self.luhn32(values[start..<start + 13])
            guard values[start + 13] == check else { throw .checkCharacter(group: group + 1) }
        }
        let groups = stride(from: 0, to: 56, by: 7).map { String(String.UnicodeScalarView(characters[$0..<$0 + 7])) }
        description = groups.joined(separator: "-")
    }

    /// Upper case, without dashes and spaces, with Syncthing's readings of 0, 1 and 8.
    static func normalized(_ text: String) -> [Unicode.Scalar] {
        text.uppercased().unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            switch scalar {
            case "-", " ": nil
            case "0": "O"
            case "1": "I"
            case "8": "B"
            default: scalar
            }
        }
    }

    /// Syncthing's Luhn mod 32 check value of `values` (its factor starts at 1, not 2).
    static func luhn32(_ values: ArraySlice<Int>) -> Int {
        var factor = 1
        var sum = 0
        for value in values {
            let addend = factor * value
            factor = factor == 2 ? 1 : 2
            sum += addend / 32 + addend % 32
        }
        return (32 - sum % 32) % 32
    }
}
