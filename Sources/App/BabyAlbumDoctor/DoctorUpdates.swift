import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The updates part of a ``DoctorReport`` on the card (issue 64): the system slot that runs, the
/// slots' tries as U-Boot's script keeps them (`babyalbum-slots.env` on the FAT), an update on
/// trial, and what the last update did; on a card made before the slots, that it cannot update
/// itself. `nil` off the card.
public struct DoctorUpdatesSection: Codable, Sendable, Equatable {
    /// The slot the kernel was started from (`rauc.slot=` on its command line), `A` or `B`.
    public var slot: String?
    /// The slots' state in words, like `order B A; tries A 3, B 0`.
    public var slots: String?
    /// The slot an update was just installed into, until its frame shows a photo.
    public var trial: String?
    /// The last line `update-check` or `slot-good` wrote, with its time.
    public var lastUpdate: String?
    /// Notes that do not stop the frame.
    public var warnings: [String]

    /// The card's files, by their places on the card (deploy/card, scripts/image).
    public struct Files: Sendable {
        public var commandLine = "/proc/cmdline"
        public var cardSettings = "/boot/firmware/babyalbum.txt"
        public var updateConfiguration = "/etc/rauc/system.conf"
        public var slots = "/boot/firmware/babyalbum-slots.env"
        public var result = "/var/lib/babyalbum/update-result"

        /// The card's own places.
        public init() {}
    }

    /// Reads the card's files; `nil` where there is no card (no settings file on a FAT).
    public static func probe(_ files: Files = Files()) -> DoctorUpdatesSection? {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        guard exists(files.cardSettings) else { return nil }
        var section = DoctorUpdatesSection(slot: nil, slots: nil, trial: nil, lastUpdate: nil, warnings: [])
        guard exists(files.updateConfiguration) else {
            section.warnings.append(
                "updates: this card cannot update itself; re-flash it once with a newer image (the photos on its "
                    + "BABYALBUM drive and babyalbum.txt can be copied back after)")
            return section
        }
        section.slot = KernelCommandLine.running(from: files.commandLine).value(of: "rauc.slot")
        if section.slot == nil {
            section.warnings.append(
                "updates: this system was not started by the card's boot script (no rauc.slot=): no update can be "
                    + "installed")
        }
        if let data = FileManager.default.contents(atPath: files.slots) {
            if let variables = SlotsFile.variables(Array(data)) {
                section.slots = SlotsFile.describe(variables)
                section.trial = variables["BA_TRIAL"]
            } else {
                section.warnings.append(
                    "updates: \(files.slots) is damaged (its CRC is wrong): U-Boot uses its copy at the next boot")
            }
        }
        if let text = try? String(contentsOfFile: files.result, encoding: .utf8) {
            section.lastUpdate = text.split(separator: "\n").last.map(String.init)
        }
        return section
    }

    var textLines: [String] {
        var lines = ["Updates"]
        if let slot { lines.append("  system slot \(slot)" + (slots.map { "; \($0)" } ?? "")) }
        if let trial { lines.append("  on trial: the update in slot \(trial), until its frame shows a photo") }
        if let lastUpdate { lines.append("  last update: \(lastUpdate)") }
        if slot == nil && lastUpdate == nil && warnings.isEmpty { lines.append("  nothing to say") }
        return lines
    }
}

/// The slots file that the card's boot.scr writes with `env export -c -s 0x4000` and libubootenv
/// reads: a CRC-32 (little-endian) of the rest, then `name=value` strings, each ended by a NUL, up
/// to an empty one.
enum SlotsFile {
    /// The variables, or `nil` when the file is too short or its CRC does not match.
    static func variables(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.count > 4 else { return nil }
        let stored = bytes[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let body = bytes[4...]
        guard crc32(body) == stored else { return nil }
        var variables: [String: String] = [:]
        for entry in body.split(separator: 0, omittingEmptySubsequences: false) {
            if entry.isEmpty { break }
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return variables
    }

    /// `order B A; tries A 3, B 0`, from the variables boot.scr keeps.
    static func describe(_ variables: [String: String]) -> String {
        let order = variables["BOOT_ORDER"] ?? "A B (a new card)"
        let tries = ["A", "B"].map { "\($0) \(variables["BOOT_\($0)_LEFT"] ?? "3")" }
        return "order \(order); tries " + tries.joined(separator: ", ")
    }

    /// CRC-32 (IEEE 802.3, reflected, as zlib's `crc32` and U-Boot's).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension DoctorReport {
    /// Adds the updates section and its warnings (none of them stops the frame).
    mutating func add(updates section: DoctorUpdatesSection) {
        updates = section
        warnings += section.warnings
    }
}
