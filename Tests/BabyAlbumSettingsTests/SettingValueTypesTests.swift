import ArgumentParser
import Testing

@testable import BabyAlbumCommands
@testable import BabyAlbumSettings

/// The value types read from the commands' property wrappers, which let the resolver refuse a
/// line without a parse: they must cover the options and agree with the parse on every refusal.
@Suite("Settings: option value types")
struct SettingValueTypesTests {
    static let values = ["x!x", "", "-1", "1.5", "1e999", "abc", "KEY_NOPE", "yes", "0x0", "de", "ü", "none"]

    @Test("Every option of the slideshow and of the network setup has its value type")
    func everyOptionIsTyped() {
        for keys in [SettingsCatalog.keys(of: Show.self), SettingsCatalog.keys(of: NetworkSettings.self)] {
            let types = SettingValueTypes.of(Show.self).merging(SettingValueTypes.of(NetworkSettings.self)) { a, _ in a
            }
            let options = keys.filter { !$0.isFlag }.map(\.name)
            #expect(!options.isEmpty)
            for name in options { #expect(types[name] != nil, "no value type for '\(name)'") }
        }
    }

    @Test("Property names become the parser's long names")
    func longNames() {
        #expect(SettingValueTypes.longName(ofProperty: "interval") == "interval")
        #expect(SettingValueTypes.longName(ofProperty: "maxPhotoMegapixels") == "max-photo-megapixels")
        #expect(SettingValueTypes.longName(ofProperty: "stateDir") == "state-dir")
    }

    @Test("A value its type refuses is refused by the parse, for that option")
    func typeRefusalsAgreeWithTheParse() throws {
        // Positive control: the command without the option parses.
        _ = try Show.parse(["--state-dir", "none"])
        var refusals = 0
        for (name, valueType) in SettingValueTypes.of(Show.self).sorted(by: { $0.key < $1.key }) {
            for value in Self.values where valueType.init(argument: value) == nil {
                refusals += 1
                do {
                    _ = try Show.parse(["--state-dir", "none", "--\(name)=\(value)"])
                    Issue.record("\(name) = \(value): its type refuses it, the parse takes it")
                } catch {
                    let message = Show.message(for: error)
                    #expect(message.contains("--\(name)"), "\(name) = \(value): \(message)")
                }
            }
        }
        #expect(refusals > 30)
    }
}
