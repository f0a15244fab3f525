import AlbumDomain
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A plain decimal number: digits with an optional fraction and an optional leading minus (so a
/// negative value reaches the range check rather than passing for an option). No exponent, no hex,
/// no `inf` or `nan`: `0x10` is not 16 and `1e16` is not a number of seconds.
struct DecimalOption: ExpressibleByArgument, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, Equatable,
    Sendable
{
    let value: Double

    init(_ value: Double) {
        self.value = value
    }

    init(floatLiteral value: Double) {
        self.value = value
    }

    init(integerLiteral value: Int) {
        self.value = Double(value)
    }

    init?(argument: String) {
        var digits = Substring(argument)
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard argument.count <= 40, (1...2).contains(parts.count), !parts.allSatisfy(\.isEmpty),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts.count == 1 || !parts[1].isEmpty,
            let value = Double(argument)
        else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { String(value) }
}
