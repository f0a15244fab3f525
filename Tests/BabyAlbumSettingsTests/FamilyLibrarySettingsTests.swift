import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// `family-library = DEVICE-ID` in the settings file (issue 37): Syncthing's own IDs accepted in
/// any case and spacing, a typo (a wrong Luhn check character, a wrong length or letter) one
/// problem naming its line, the others still in effect.
@Suite struct FamilyLibrarySettingsTests {
    /// Made by `syncthing generate` (Debian's 1.19).
    static let real = "6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA6"

    @Test func syncthingsOwnIDIsAcceptedInAnySpelling() throws {
        let spellings = [Self.real, Self.real.lowercased(), Self.real.replacingOccurrences(of: "-", with: " ")]
        for text in spellings {
            #expect(try SyncthingDeviceID(parsing: text).description == Self.real)
        }
    }

    @Test(arguments: [
        ("6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA7", "check character 4 of 4"),
        ("6HAVORI-6XHTXGH-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA6", "check character 1 of 4"),
        ("6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO", "has 49 letters and digits"),
        ("6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA9", "'9' is not in an ID"),
    ])
    func aTypoIsOneProblemNamingItsLine(_ id: String, reason: String) throws {
        let resolution = try resolve("family-library = \(Self.real)\nfamily-library = \(id)\n")
        #expect(resolution.problems.map(\.line) == [2], "\(resolution.problems)")
        #expect(resolution.problems.first?.reason.contains(reason) == true, "\(resolution.problems)")
        #expect(try resolution.command.familyLibraryOptions.devices().map(\.id.description) == [Self.real])
    }

    @Test func anAddressMayFollowTheID() throws {
        let resolution = try resolve(
            "family-library = \(Self.real) tcp://10.0.2.2:22000\nfamily-library = \(Self.real) http://x\n")
        #expect(resolution.problems.map(\.line) == [2], "\(resolution.problems)")
        let devices = try resolution.command.familyLibraryOptions.devices()
        #expect(devices.map(\.address) == ["tcp://10.0.2.2:22000"])
    }

    @Test(arguments: ["tcp://host&amp;:22000", "tcp://<host>:22000", "tcp://a|b:22000", "tcp://é.example:22000"])
    func anAddressWithMarkupOrOtherCharactersIsRefused(address: String) throws {
        let resolution = try resolve(
            "family-library = \(Self.real) \(address)\nfamily-library = \(Self.real) quic://[fe80::1%eth0]:22000\n")
        #expect(resolution.problems.map(\.line) == [1], "\(resolution.problems)")
        let devices = try resolution.command.familyLibraryOptions.devices()
        #expect(devices.map(\.address) == ["quic://[fe80::1%eth0]:22000"])
    }

    @Test func theNetworkIsInternetUnlessSetLocal() throws {
        #expect(try resolve("").command.familyLibraryOptions.familyLibraryNetwork == .internet)
        let local = try resolve("family-library-network = local\n")
        #expect(local.command.familyLibraryOptions.familyLibraryNetwork == .local)
        #expect(try resolve("family-library-network = lan\n").problems.map(\.line) == [1])
    }

    @Test func syncthingsOwnWordDynamicIsNoAddress() throws {
        let resolution = try resolve("family-library = \(Self.real) dynamic\n")
        #expect(resolution.problems == [])
        let devices = try resolution.command.familyLibraryOptions.devices()
        #expect(devices.map(\.address) == ["dynamic"])
        #expect(devices.map(\.id.description) == [Self.real])
    }

    /// Issue 61: each frame its own name in the family's Syncthing, and nothing config.xml or sed
    /// would read as markup.
    @Test func theFrameIsNamedForTheChildInSafeCharacters() {
        #expect(FamilyLibraryCommand.frameName(child: "Mia") == "BabyAlbum Mia")
        #expect(FamilyLibraryCommand.frameName(child: nil) == "BabyAlbum")
        #expect(FamilyLibraryCommand.frameName(child: "Zoë & <Max>|\"x\"\u{1B}[2J") == "BabyAlbum Zoë Maxx2J")
    }
}
