import ArgumentParser
import BabyAlbumSettings

/// The card's network settings: the slideshow itself never uses them; `babyalbum network-setup`
/// turns them into the system's configuration at boot.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "NTP servers that set the card's clock, separated by spaces (the card's systemd-timesyncd).",
            valueName: "servers"))
    var timeServers = TimeServers.debianPool.description

    func validate() throws {
        do {
            _ = try TimeServers(parsing: timeServers)
        } catch {
            throw ValidationError("--time-servers: \(error)")
        }
    }

    /// The servers, checked by ``validate()``.
    var servers: TimeServers { (try? TimeServers(parsing: timeServers)) ?? .debianPool }
}
