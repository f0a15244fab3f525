import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces
import Logging
import PhotoCodec
import PhotoSources

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The settings file in front of the slideshow's command line: `babyalbum` (and `babyalbum
/// show`) read `--settings FILE`, else ``SettingsFile/defaultPath(fileExists:)``, merge it under
/// the command line, log each line left out, and run with the rest.
enum SettingsWiring {
    /// Keys that make no sense in the file.
    static let excludedKeys: Set<String> = ["settings"]

    /// The subcommands that do not read the settings file themselves.
    static let otherSubcommands: Set<String> = [
        "doctor", "benchmark-decode", "settings", "network-setup", "wifi-watch", "clock-module-setup",
        "family-library", "update-policy", "help",
    ]

    /// The slideshow's own options among `babyalbum`'s arguments (after `show`, if given); `nil`
    /// for another subcommand or a help/version request.
    static func slideshowArguments(_ arguments: [String]) -> [String]? {
        guard let first = arguments.first else { return [] }
        let options = first == "show" ? Array(arguments.dropFirst()) : arguments
        if otherSubcommands.contains(first) || asksForHelp(options) { return nil }
        return options
    }

    /// Whether `options` ask for help or the version (before any `--`): ArgumentParser answers
    /// those itself, for the subcommand named.
    static func asksForHelp(_ options: [String]) -> Bool {
        let helpWords: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help"]
        return options.prefix { $0 != "--" }.contains { helpWords.contains($0) }
    }

    /// The settings file `commandLine` names with `--settings FILE`, else the default one.
    static func settingsPath(in commandLine: [String]) -> String {
        var path: String?
        for (index, word) in commandLine.enumerated() {
            if word == "--" { break }
            if word == "--settings", index + 1 < commandLine.count { path = commandLine[index + 1] }
            if word.hasPrefix("--settings=") { path = String(word.dropFirst("--settings=".count)) }
        }
        return path ?? SettingsFile.defaultPath()
    }

    /// Resolves the slideshow's settings: the file at `path` (if any) under `commandLine`.
    static func resolve(commandLine: [String], path: String? = nil) throws -> (
        path: String, file: SettingsFile?, resolution: SettingsResolution<Show>
    ) {
        let path = path ?? settingsPath(in: commandLine)
        let file = SettingsFile.read(path)
        return (path, file, try resolve(file: file, commandLine: commandLine))
    }

    /// Resolves the slideshow's settings: `file` (`nil`: there is none) under `commandLine`.
    static func resolve(file: SettingsFile?, commandLine: [String]) throws -> SettingsResolution<Show> {
        try SettingsResolver.resolve(Show.self, file: file, commandLine: commandLine, ignoring: excludedKeys)
    }

    /// The settings report for `commandLine` (for `doctor` and `babyalbum settings`).
    static func report(commandLine: [String], path: String? = nil) throws -> SettingsReport {
        let (path, file, resolution) = try resolve(commandLine: commandLine, path: path)
        return report(path: path, file: file, resolution: resolution, commandLine: commandLine)
    }

    /// The settings report of a resolution.
    static func report(
        path: String, file: SettingsFile?, resolution: SettingsResolution<Show>, commandLine: [String]
    ) -> SettingsReport {
        var report = SettingsReport(
            file: path, fileFound: file != nil, resolution: resolution,
            keys: SettingsCatalog.keys(of: Show.self, excluding: excludedKeys), commandLine: commandLine)
        // The Wi-Fi the card would join, or why none (the same check as network-setup's).
        do {
            _ = try resolution.command.network.wifi(problems: resolution.problems, accepted: resolution.accepted)
        } catch {
            report.problems.append(SettingsProblem(file: path, line: 0, reason: "no Wi-Fi: \(error)"))
            report.problems.sort { $0.line < $1.line }
        }
        return report
    }

    /// A logger that writes before `LoggingSystem` is set up (settings come first).
    static var logger: Logger {
        var logger = Logger(label: "babyalbum.settings") { EscapingLogHandler(label: $0) }
        logger.logLevel = .info
        return logger
    }

    /// Logs every line left out of the file.
    static func logProblems(_ report: SettingsReport) {
        for problem in report.problems { logger.warning("settings: \(problem)") }
        if report.fileFound {
            let fromFile = report.settings.filter { $0.origin.hasPrefix(report.file) }
            logger.info("settings: \(fromFile.count) from \(report.file), \(report.problems.count) lines left out")
        }
    }

    /// Replaces this process with a fresh `babyalbum` of the same command line, which reads the
    /// settings file and looks for a display again (after SIGHUP with a changed file, or once a
    /// display is connected to a frame with no screen), through
    /// ``ProcessImage/restart(arguments:)`` (SIGHUP ignored and blocked across the `exec`).
    /// Logs `reason` first. Returns only by throwing, when `exec` failed: the slideshow has ended,
    /// so the process exits with a failure, which the service restarts (its
    /// `RestartPreventExitStatus=0` would keep a frame that exits with 0 stopped).
    static func startAgain(because reason: String) throws -> Never {
        logger.notice("\(reason)")
        let failure = ProcessImage.restart(arguments: CommandLine.arguments)
        logger.critical("cannot start again (\(errnoDescription(failure.code))): exiting for the service to restart it")
        throw ExitCode.failure
    }
}

extension SettingsWiring {
    /// For SIGHUP: re-reads the settings file and tells whether its values in effect differ
    /// from those the slideshow started with.
    static func changeDetector(_ origin: SettingsAtStart) -> @Sendable () -> Bool {
        {
            guard let now = try? resolve(commandLine: origin.commandLine) else { return false }
            return now.resolution.fileValues != origin.fileValues
        }
    }
}

extension SettingsWiring {
    /// The example settings file that `deploy/install.sh` installs.
    static var example: String {
        SettingsCatalog.example(
            keys: SettingsCatalog.keys(of: Show.self, excluding: excludedKeys),
            header: """
                BabyAlbum photo frame settings. Edit on any computer; the frame reads them at start.
                One setting a line: key = value. A line starting with # is a comment.
                Remove the # in front of a line to change that setting. Repeat a line for settings
                that take several values (photos, exit-key, ...). A line with a mistake is left out,
                and "babyalbum doctor" names it; the frame keeps running with the other lines.
                After a value, " #" starts a comment: put a value that holds " #" in quotes, as in
                the line: wifi-password = "correct horse #battery". A Wi-Fi line with a mistake
                means no Wi-Fi until it is fixed; an open network needs: wifi-password = none.
                """)
    }
}

extension RotateOption {
    /// `auto` or the degrees, as the help and the example settings file show the default.
    var defaultValueDescription: String {
        switch value {
        case .automatic: "auto"
        case .fixed(let rotation): "\(rotation.rawValue * 90)"
        }
    }
}

extension StickPhotos: ExpressibleByArgument {}
