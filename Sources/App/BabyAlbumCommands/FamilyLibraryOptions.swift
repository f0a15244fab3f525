import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces

/// The family library on the card (issue 37): the Syncthing devices it takes photos from. The
/// slideshow only checks them (a typo is a settings line left out, with its reason, in the log and
/// in `doctor`); `babyalbum family-library` hands them to the card's pairing script.
struct FamilyLibraryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A family Syncthing device whose shared folders the card's Syncthing receives (Actions > Show ID), "
                + "optionally followed by its address (tcp://HOST:PORT) when discovery cannot find it. Repeatable.",
            valueName: "device-id [address]"))
    var familyLibrary: [String] = []

    @Option(
        help: ArgumentHelp(
            "internet: Syncthing finds the family's devices anywhere (global discovery, relays); "
                + "local: on this network only.", valueName: "internet|local"))
    var familyLibraryNetwork = FamilyLibraryNetwork.internet

    func validate() throws {
        _ = try devices()
    }

    /// The devices, checked, each with its address (`dynamic`: found by discovery).
    func devices() throws -> [(id: SyncthingDeviceID, address: String)] {
        try familyLibrary.map { text in
            let words = text.split(separator: " ", omittingEmptySubsequences: true)
            let address = words.count == 9 || words.count == 2 ? String(words.last!) : "dynamic"
            // `dynamic` (Syncthing's own word: found by discovery) is the same as no address.
            let id = words.count == 9 || words.count == 2 ? words.dropLast().joined(separator: " ") : text
            guard address == "dynamic" || Self.isAddress(address) else {
                throw ValidationError(
                    "'\(address.quotedForMessage())' is not a Syncthing address: use tcp://HOST:PORT or quic://HOST:PORT (letters, digits and . - _ : / [ ] % only)"
                )
            }
            do {
                return (try SyncthingDeviceID(parsing: id), address)
            } catch {
                throw ValidationError("'\(id.quotedForMessage(limit: 80))' is not a Syncthing device ID: \(error)")
            }
        }
    }

    /// `tcp://` or `quic://` and a host and port: letters, digits and `. - _ : / [ ] %` only (an
    /// IPv6 address in brackets, with its zone). The card writes the address into Syncthing's
    /// config.xml as it is, so nothing that XML or its editor would read as markup gets through.
    static func isAddress(_ word: String) -> Bool {
        (word.hasPrefix("tcp://") || word.hasPrefix("quic://")) && word.contains(":")
            && word.unicodeScalars.allSatisfy(isAddressCharacter)
    }

    private static func isAddressCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "._-:/[]%".unicodeScalars.contains(scalar)
    }
}
