import ArgumentParser
import BabyAlbumSettings

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
        // Only the network keys: the slideshow's own checks (its photo folders) do not apply here.
        let path = settings ?? SettingsFile.defaultPath()
        let file = SettingsFile.read(path)
        let resolution = try SettingsResolver.resolve(NetworkSettings.self, file: file, commandLine: [])
        let keys = Set(SettingsCatalog.keys(of: NetworkSettings.self).map(\.name))
        for problem in resolution.problems where keys.contains(where: { problem.reason.contains($0) }) {
            print("network-setup: \(problem)")
        }
        let servers = resolution.command.network.servers
        try write(servers.timesyncdDropIn, to: "\(out)/systemd/timesyncd.conf.d/50-babyalbum.conf")
        print("network-setup: time servers \(servers) (from \(path))")
        let supplicant = "\(out)/babyalbum/wpa_supplicant-wlan0.conf"
        let wifi: WiFiNetwork?
        do {
            wifi = try resolution.command.network.wifi()
        } catch {
            print("network-setup: no Wi-Fi: \(error)")
            wifi = nil
        }
        if let wifi {
            try write(wifi.supplicantConfiguration, to: supplicant, secret: true)
            let security = wifi.password == nil ? "open" : "WPA2/WPA3 personal"
            print("network-setup: Wi-Fi '\(wifi.name)' (\(security), country \(wifi.country)) on wlan0")
        } else {
            try? FileManager.default.removeItem(atPath: supplicant)
            if resolution.command.network.wifiName == nil { print("network-setup: no Wi-Fi (wifi-name is not set)") }
        }
    }

    /// Writes `text` to `file` (through a new file and a rename); a secret's folder is made
    /// 0700 and the file 0600, so the password is never readable by others, even for a moment.
    private func write(_ text: String, to file: String, secret: Bool = false) throws {
        let folder = String(file[..<file.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true,
            attributes: secret ? [.posixPermissions: 0o700] : nil)
        let temporary = file + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        let created = FileManager.default.createFile(
            atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: secret ? 0o600 : 0o644])
        guard created else { throw ValidationError("network-setup: cannot write \(temporary)") }
        try? FileManager.default.removeItem(atPath: file)
        try FileManager.default.moveItem(atPath: temporary, toPath: file)
    }
}

/// The settings file read for its network keys alone (every other key is the slideshow's).
struct NetworkSettings: ParsableCommand {
    @OptionGroup var network: NetworkOptions
}
