import AlbumDomain

/// The append-only journal beside a shuffle state file: the photos shown since the state file
/// was last written, one line each, so that showing a photo costs one short line instead of a
/// rewrite of the whole round.
///
/// ```
/// babyalbum-shuffle-journal 1 9F3A0C5D11E2B7A4
/// shown 2024/cake.png
/// shown 2023/snow.png
/// ```
///
/// The header names the state file it continues by a checksum of its bytes (FNV-1a, 64 bits),
/// so a journal left over from an older state file is ignored. Only whole lines count: a line
/// cut short by a power cut (the file's tail without its newline) is dropped, and so is
/// everything after a line that is not a `shown` line.
struct ShuffleJournal {
    /// The first line's first words.
    static let header = "babyalbum-shuffle-journal 1 "

    /// The journal's first line for the state file `base`.
    static func headerLine(for base: [UInt8]) -> [UInt8] {
        Array((header + checksum(base) + "\n").utf8)
    }

    /// The photos a journal lists for the state file `base`, oldest first, and whether the whole
    /// journal was taken (`false`: cut short, damaged or of another state file).
    static func entries(
        _ journal: [UInt8], base: [UInt8], decode: (ArraySlice<UInt8>) -> PhotoID
    ) -> (shown: [PhotoID], whole: Bool) {
        var lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false)
        let expected = headerLine(for: base).dropLast()
        guard let first = lines.first, first.elementsEqual(expected), lines.count > 1 else { return ([], false) }
        // The piece after the last newline: empty when the file ends with a whole line.
        let whole = lines.removeLast().isEmpty
        var shown: [PhotoID] = []
        let key = Array("shown ".utf8)
        for line in lines.dropFirst() {
            guard line.starts(with: key) else { return (shown, false) }
            shown.append(decode(line.dropFirst(key.count)))
        }
        return (shown, whole)
    }

    /// `snapshot` with the journal's photos shown: taken out of what remains, added to what was
    /// shown, the last of them the last handed out. O(round) with a set, whatever the length.
    static func applying(_ shown: [PhotoID], to snapshot: ShuffleSnapshot) -> ShuffleSnapshot {
        guard let newest = shown.last else { return snapshot }
        let taken = Set(shown)
        return ShuffleSnapshot(
            remaining: snapshot.remaining.filter { !taken.contains($0) }, shown: snapshot.shown + shown, last: newest)
    }

    /// The photos to journal to take `saved` to `next`, or `nil` when `next` is not `saved` with
    /// photos shown (a new round, photos added or removed: the state file is written instead).
    static func shownSince(_ saved: ShuffleSnapshot, to next: ShuffleSnapshot) -> [PhotoID]? {
        guard next.shown.count > saved.shown.count, next.shown.starts(with: saved.shown) else { return nil }
        let added = Array(next.shown[saved.shown.count...])
        return applying(added, to: saved) == next ? added : nil
    }

    /// FNV-1a, 64 bits, as 16 hexadecimal digits.
    static func checksum(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
