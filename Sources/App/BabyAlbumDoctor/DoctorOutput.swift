import BabyAlbumSettings
import PhotoSources

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum doctor`'s whole output, assembled here rather than in the command: the settings the
/// frame runs with (or why the service's options would stop it), the USB sticks, the checks'
/// report and Syncthing's line, as text or as one JSON object.
public struct DoctorOutput: Sendable {
    /// The settings section's source: the report of the resolved settings, or the service's
    /// options' error (one line).
    public enum Settings: Sendable {
        /// The settings resolved, with where each came from.
        case resolved(SettingsReport)
        /// The service's options are broken: the parser's message (it may have several lines).
        case broken(String)
    }

    /// The checks' report.
    public var report: DoctorReport
    /// The settings section.
    public var settings: Settings
    /// The USB sticks plugged in.
    public var sticks: [StickReport]
    /// The service's options file, when it was found.
    public var serviceOptionsFile: String?
    /// Syncthing's line (the frame's device ID), when Syncthing is set up.
    public var syncLine: String?

    /// Assembles the output.
    public init(
        report: DoctorReport, settings: Settings, sticks: [StickReport], serviceOptionsFile: String?,
        syncLine: String?
    ) {
        (self.report, self.settings, self.sticks) = (report, settings, sticks)
        (self.serviceOptionsFile, self.syncLine) = (serviceOptionsFile, syncLine)
    }

    /// Whether the frame would work: every check passed, and a service options file that is
    /// there resolves.
    public var ok: Bool {
        guard case .broken = settings, serviceOptionsFile != nil else { return report.ok }
        return false
    }

    /// The report as text, section by section, each followed by an empty line.
    public var text: String {
        var text = serviceOptionsFile.map { "Service options from \($0)\n" } ?? ""
        text += settingsText + "\n" + Self.sticksText(sticks) + "\n" + report.text
        if let syncLine { text += syncLine + "\n" }
        return text
    }

    /// The report as one JSON object: the report's members, with `settings` (the settings
    /// report, or `{"error": …}`) and `sticks` beside them.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(JSONForm(output: self)), as: UTF8.self) + "\n"
    }

    private var settingsText: String {
        switch settings {
        case .resolved(let report): report.text
        case .broken(let message):
            "Settings: FIX: the service's options are broken, the frame would not start: "
                + message.split(separator: "\n").joined(separator: " ") + "\n"
        }
    }

    /// The USB sticks section.
    static func sticksText(_ sticks: [StickReport]) -> String {
        if sticks.isEmpty { return "USB sticks: none plugged in\n" }
        return "USB sticks\n" + sticks.map { "  \($0.problem == nil ? "" : "FIX: ")\($0.text)\n" }.joined()
    }

    private struct JSONForm: Encodable {
        let output: DoctorOutput

        private enum Key: String, CodingKey {
            case settings, sticks, error
        }

        func encode(to encoder: any Encoder) throws {
            try output.report.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            switch output.settings {
            case .resolved(let report): try container.encode(report, forKey: .settings)
            case .broken(let message):
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: .settings)
                try nested.encode(message, forKey: .error)
            }
            try container.encode(output.sticks, forKey: .sticks)
        }
    }
}
