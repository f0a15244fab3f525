import ArgumentParser
import BabyAlbumSettings
import QuietHours

/// The card's network settings: the slideshow itself never uses them; `babyalbum network-setup`
/// turns them into the system's configuration at boot.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "NTP servers that set the card's clock, separated by spaces (the card's systemd-timesyncd).",
            valueName: "servers"))
    var timeServers = TimeServers.debianPool.description

    @Option(help: ArgumentHelp("The card's Wi-Fi network (its name, SSID).", valueName: "name"))
    var wifiName: String?

    @Option(help: "yes: the Wi-Fi network does not announce its name (a hidden network), so the card asks for it.")
    var wifiHidden = YesNo.no

    @Option(
        help: ArgumentHelp(
            "The Wi-Fi password (WPA2 or WPA3 personal), or none for an open network; never shown.",
            valueName: "password"))
    var wifiPassword: String?

    @Option(
        help: ArgumentHelp("The Wi-Fi country (regulatory domain), two letters, e.g. DE.", valueName: "country"))
    var wifiCountry: String?

    @Option(
        help: ArgumentHelp(
            "A real-time clock module on the card's clock bus (GPIO 23 SDA, GPIO 24 SCL), for a home without "
                + "Wi-Fi: none, ds3231 or pcf8523."))
    var clockModule = ClockModuleChip.none

    func validate() throws {
        do {
            _ = try TimeServers(parsing: timeServers)
        } catch {
            throw ValidationError("--time-servers: \(error)")
        }
        do {
            try WiFiNetwork.check(name: wifiName, password: wifiPassword, country: wifiCountry)
        } catch {
            throw ValidationError("--\(error)")
        }
    }

    /// The servers, checked by ``validate()``.
    var servers: TimeServers { (try? TimeServers(parsing: timeServers)) ?? .debianPool }

    /// The Wi-Fi network; `nil` without `wifi-name`; throws when the settings do not go together
    /// or a Wi-Fi line of the file was left out (`problems`: the file's).
    func wifi(problems: [SettingsProblem], accepted: [SettingsEntry] = []) throws(SettingValueError) -> WiFiNetwork? {
        try WiFiNetwork(
            name: wifiName, password: wifiPassword, country: wifiCountry, isHidden: wifiHidden == .yes,
            wifiLinesLeftOut: problems.filter(\.isAboutWiFi).map(\.line),
            nameLine: accepted.last { $0.key == "wifi-name" }?.line)
    }
}
