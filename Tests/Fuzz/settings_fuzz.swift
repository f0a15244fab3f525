// The settings parser's fuzz job (Tests/Fuzz/run): seeded mutants of a real settings file,
// with control characters, NUL, line and paragraph separators, bytes that are not UTF-8, long
// lines and oversized files, through SettingsFile, built with AddressSanitizer (Swift's own
// bounds and overflow checks stay on). Checks what the README promises for every mutant:
// line numbers are an editor's (only LF, CR and CRLF end a line), no reason carries a raw
// control character, no value holds NUL, no line over 4 KB is taken, a file over 64 KB is one
// problem. Ends with "settings fuzz: N mutants, M failures".
//
//   settings-fuzz [--seconds S] [--min N] [--seed N] SCRATCH_DIR
import Foundation

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n > 0 ? Int(next() % UInt64(n)) : 0 }
}

let seedText = """
    # BabyAlbum settings
    photos = /srv/photos
    interval = 15
    scale = "fit"
    exit-key = KEY_POWER
    exit_key = 116   # a comment
    quiet-hours = mon-fri 19:00-07:00
    rotate = 90

    """
let hostile: [[UInt8]] = [
    [0x00], [0x0B], [0x0C], [0x1B, 0x5B, 0x32, 0x4A], [0x0D], [0x0A], [0x0D, 0x0A], [0xE2, 0x80, 0xA8],
    [0xE2, 0x80, 0xA9], [0xC2, 0x85], [0xC2, 0x9B], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [0x7F], [0x3D], [0x23],
    [0x22], [0x09],
]

func mutant(_ random: inout SplitMix64) -> [UInt8] {
    var bytes = Array(seedText.utf8)
    for _ in 0...random.below(12) {
        let at = random.below(bytes.count + 1)
        switch random.below(6) {
        case 0: bytes.insert(contentsOf: hostile[random.below(hostile.count)], at: at)
        case 1: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: random.next()) }
        case 2: if at < bytes.count { bytes.remove(at: at) }
        case 3: bytes.insert(contentsOf: [UInt8](repeating: 0x61, count: 3000 + random.below(3000)), at: at)
        case 4:
            bytes.insert(
                contentsOf: (0..<random.below(64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
        default: bytes.insert(contentsOf: Array("\nphotos = /a\u{0}/b\n".utf8), at: at)
        }
    }
    return bytes
}

func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
}

/// The problems with `file` parsed from `text`, as sentences; empty when every promise holds.
func violations(_ file: SettingsFile, text: String) -> [String] {
    var found: [String] = []
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    for entry in file.entries {
        guard entry.line >= 1, entry.line <= lines.count else {
            found.append("entry on line \(entry.line) of \(lines.count)")
            continue
        }
        if entry.value.unicodeScalars.contains("\u{0}") { found.append("a value with NUL on line \(entry.line)") }
        if lines[entry.line - 1].utf8.count > SettingsFile.maxLineBytes { found.append("a long line taken") }
        if !entry.key.unicodeScalars.allSatisfy({ $0 == "-" || CharacterSet.alphanumerics.contains($0) }) {
            found.append("a key with other characters: \(entry.key.escapingControlCharacters)")
        }
    }
    for problem in file.problems where problem.description.unicodeScalars.contains(where: isControl) {
        found.append("a raw control character in: \(problem.description.escapingControlCharacters)")
    }
    return found
}

var seconds = 20.0
var minimum = 1000
var random = SplitMix64(state: 1)
var arguments = Array(CommandLine.arguments.dropFirst())
while arguments.count >= 2, arguments[0].hasPrefix("--") {
    switch arguments[0] {
    case "--seconds": seconds = Double(arguments[1]) ?? seconds
    case "--min": minimum = Int(arguments[1]) ?? minimum
    case "--seed": random = SplitMix64(state: UInt64(arguments[1]) ?? 1)
    default: break
    }
    arguments.removeFirst(2)
}
let scratch = arguments.first ?? NSTemporaryDirectory()
let deadline = Date().addingTimeInterval(seconds)
var passed = 0
var failed = 0
while Date() < deadline || passed + failed < minimum {
    var bytes = mutant(&random)
    if random.below(40) == 0 { bytes += [UInt8](repeating: 0x23, count: SettingsFile.maxFileBytes) }
    let path = scratch + "/settings-\(passed + failed).txt"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let file = SettingsFile.read(path)
    // As the reader takes it: UTF-16 (a byte-order mark, or zeros in every other place) or UTF-8.
    let text = SettingsFile.decodedUTF16(bytes) ?? String(decoding: bytes, as: UTF8.self)
    var found: [String] = []
    if let file {
        if bytes.count > SettingsFile.maxFileBytes {
            if !(file.entries.isEmpty && file.problems.count == 1) { found.append("an oversized file was read") }
        } else {
            found = violations(file, text: text)
        }
    } else {
        found.append("the file was not read")
    }
    if found.isEmpty {
        passed += 1
        try? FileManager.default.removeItem(atPath: path)
    } else {
        failed += 1
        print("settings fuzz: \(path): \(found.joined(separator: "; "))")
    }
}
print("settings fuzz: \(passed + failed) mutants of a settings file in \(Int(seconds)) s")
print("settings fuzz: \(passed + failed) mutants, \(failed) failures")
exit(failed == 0 ? 0 : 1)
