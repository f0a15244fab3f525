import ArgumentParser
import BabyAlbumSettings
import LinuxInterfaces
import WiFiStatus

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `babyalbum network-setup` (hidden): at every boot, before systemd-timesyncd starts, writes the
/// settings file's network settings as drop-ins under `--out` (the card's `/run`, never the card).
struct NetworkSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network-setup",
        abstract: "Write the settings file's network settings as systemd drop-ins (for the card's boot).",
        shouldDisplay: false)

    @Option(help: "The folder the drop-ins go under.")
    var out = "/run"

    @Option(help: "The settings file (default: as the slideshow's).")
    var settings: String?

    func run() throws {
        let (path, file, resolution) = try SettingsWiring.resolve(commandLine: [], path: settings)
        // The file's own problems (not UTF-8, too large), the network keys' and the keys that
        // are no setting at all (a misspelt wifi-password is one).
        for problem in SettingsConsumer.networkSetup.problems(in: resolution) {
            print("network-setup: \(problem)".escapingControlCharacters)
        }
        try writeFamilyLibraryCopy(of: file ?? SettingsFile(path: path, contents: ""))
        let servers = resolution.command.network.servers
        try write(servers.timesyncdDropIn, to: "\(out)/systemd/timesyncd.conf.d/50-babyalbum.conf")
        print("network-setup: time servers \(servers) (from \(path.escapingControlCharacters))")
        let supplicant = "\(out)/babyalbum/wpa_supplicant-wlan0.conf"
        let status = "\(out)/babyalbum-wifi"
        let wifi: WiFiNetwork?
        do {
            wifi = try resolution.command.network.wifi(problems: resolution.problems, accepted: resolution.accepted)
        } catch {
            removeFileIgnoringErrors(supplicant)
            print("network-setup: no Wi-Fi: \(error)")
            try write(WiFiState.notSetUp(reason: error.description).fileText, to: status)
            return
        }
        guard let wifi else {
            removeFileIgnoringErrors(supplicant)
            print("network-setup: no Wi-Fi (wifi-name is not set)")
            return
        }
        if let note = WiFiNetwork.countryCode(resolution.command.network.wifiCountry ?? "")?.note {
            print("network-setup: \(note)")
        }
        try write(wifi.supplicantConfiguration, to: supplicant, secret: true)
        let security = wifi.password == nil ? "open, as wifi-password = none asks" : "WPA2/WPA3 personal"
        let hidden = wifi.isHidden ? ", hidden" : ""
        let name = wifi.name.escapingControlCharacters
        print("network-setup: Wi-Fi '\(name)' (\(security)\(hidden), country \(wifi.country)) on wlan0")
    }

    /// The settings file as the card's Syncthing unit sees it (bound over babyalbum.txt there):
    /// only the family library's lines and the child's name, line numbers kept, so the
    /// network-facing process never reads the Wi-Fi password (issue 61).
    private func writeFamilyLibraryCopy(of file: SettingsFile) throws {
        try write(file.keeping(only: SettingsConsumer.familyLibrary.keys), to: "\(out)/babyalbum-family/babyalbum.txt")
    }

    /// Writes `text` to `file` through a new file and a rename. A secret's folder is made 0700
    /// and its file is created 0600 (`open` with `O_EXCL`), so the password is never readable by
    /// another user, not even for a moment.
    private func write(_ text: String, to file: String, secret: Bool = false) throws {
        let folder = String(file[..<file.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true,
            attributes: secret ? [.posixPermissions: 0o700] : nil)
        let temporary = file + ".new"
        removeFileIgnoringErrors(temporary)
        do throws(SystemCallFailure) {
            let descriptor = try FileDescriptor(
                opening: temporary, .writeOnly, options: [.create, .exclusive], permissions: secret ? 0o600 : 0o644)
            try descriptor.write(Array(text.utf8))
            try descriptor.close()
            try renameFile(temporary, to: file)
        } catch {
            throw ValidationError("network-setup: cannot write \(file): \(error)")
        }
    }
}
