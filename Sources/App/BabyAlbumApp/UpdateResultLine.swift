import AlbumDomain

/// A line of the card's `update-result` file (written by `deploy/card/update-check` and
/// `deploy/card/slot-good`: a UTC time, then what happened) as the frame tells it on screen.
enum UpdateResultLine {
    /// The outcome the line says, in a parent's words; `nil` for a line of no known form.
    static func outcome(of line: String) -> UpdateOutcome? {
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard words.count == 2 else { return nil }
        let said = String(words[1])
        if said.hasPrefix("installed "), let end = said.firstRange(of: " into slot ") {
            let version = said[said.index(said.startIndex, offsetBy: "installed ".count)..<end.lowerBound]
            return version.isEmpty ? nil : .installed(version: String(version))
        }
        if said.hasPrefix("rolled back: "), let version = said.split(separator: " ").last, said.contains(" runs ") {
            return .rolledBack(version: String(version))
        }
        if said.hasPrefix("refused "), let colon = said.firstRange(of: ": ") {
            let reason = withoutDetails(String(said[colon.upperBound...]))
            return reason.isEmpty ? nil : .refused(reason: reason)
        }
        return nil
    }

    /// The slot an "installed" line names (`installed 0.4.0 into slot B, …`: "B"); `nil` for
    /// any other line.
    static func installedSlot(of line: String) -> String? {
        guard line.contains(" installed "), let into = line.firstRange(of: " into slot ") else { return nil }
        let slot = line[into.upperBound...].prefix { $0.isLetter }
        return slot.isEmpty ? nil : String(slot)
    }

    /// The reason without its closing parenthesis of technical details (RAUC's own words).
    private static func withoutDetails(_ reason: String) -> String {
        guard reason.hasSuffix(")"), let open = reason.firstRange(of: " (") else { return reason }
        return String(reason[..<open.lowerBound])
    }
}
