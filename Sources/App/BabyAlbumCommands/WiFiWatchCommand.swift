import ArgumentParser
import LinuxInterfaces
import WiFiStatus

/// `babyalbum wifi-watch` (hidden): on the card, beside wpa_supplicant@wlan0, says each change of
/// the Wi-Fi's state once, as one clear line (wrong password, network not found, connected), and
/// keeps it in a file for `babyalbum doctor`.
struct WiFiWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wifi-watch",
        abstract: "Say the Wi-Fi's state as one line per change, from wpa_supplicant's control socket (the card's).",
        shouldDisplay: false)

    @Option(help: "wpa_supplicant's control socket of the interface.")
    var socket = "/run/wpa_supplicant/wlan0"

    @Option(help: "The state file that babyalbum doctor reads.")
    var status = WiFiWatcher.defaultStatusFile

    func run() throws {
        let watcher = WiFiWatcher(remote: socket, local: "/run/babyalbum-wifi-watch.socket", statusFile: status) {
            writeToStandardOutput($0 + "\n")  // unbuffered: one journal line per change, at once
        }
        watcher.run()
    }
}
