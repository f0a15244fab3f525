import ArgumentParser
import BabyAlbumSettings

/// The programs that read `babyalbum.txt`, and the keys each consumes.
///
/// The file is resolved once, for the slideshow's command (``Show``), by
/// ``SettingsWiring/resolve(commandLine:path:)``: every program takes its typed values from that
/// one result (`resolution.command.network`, `.familyLibraryOptions`, ...) and reports the file
/// lines left out that concern it, chosen by key here, never by a reason's wording.
enum SettingsConsumer: CaseIterable {
    /// `babyalbum` (and `doctor`, `settings`): every key.
    case slideshow
    /// `network-setup` at the card's boot: the Wi-Fi and the time servers.
    case networkSetup
    /// `clock-module-setup` at the card's boot: the clock module.
    case clockModuleSetup
    /// `family-library` for the card's Syncthing: the family's devices, its network and the
    /// child's name (the frame's name for the family).
    case familyLibrary
    /// `update-policy` for the card's update check: whether an older bundle may be installed,
    /// and whether there are quiet hours to reboot in.
    case updateCheck

    /// The keys this program consumes.
    var keys: Set<String> {
        switch self {
        case .slideshow: Set(SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys).map(\.name))
        case .networkSetup: Self.names(of: NetworkSettings.self).subtracting(Self.clockModuleKeys)
        case .clockModuleSetup: Self.clockModuleKeys
        case .familyLibrary: Self.names(of: FamilyLibrarySettings.self).union(["name"])
        case .updateCheck: Self.names(of: UpdateSettings.self).union(["quiet-hours"])
        }
    }

    /// The lines of the file left out that this program reports: the file's own problems (not
    /// UTF-8, too large: line 0), its keys' lines, and the lines whose key is no setting that may
    /// have meant one of its keys (for the network, any: a misspelt `wifi-password` is one).
    func problems<Command>(in resolution: SettingsResolution<Command>) -> [SettingsProblem] {
        let ours = keys
        let everyKey = Self.slideshow.keys
        return resolution.problems.filter { problem in
            guard problem.line != 0, let key = problem.key else { return true }
            if ours.contains(key) { return true }
            guard !everyKey.contains(key) else { return false }
            switch self {
            case .slideshow, .networkSetup: return true
            case .clockModuleSetup: return key.hasPrefix("clock")
            case .familyLibrary: return key.hasPrefix("family")
            case .updateCheck: return key.hasPrefix("older") || key.hasPrefix("update")
            }
        }
    }

    private static let clockModuleKeys: Set<String> = ["clock-module"]

    private static func names<Command: ParsableCommand>(of type: Command.Type) -> Set<String> {
        Set(SettingsCatalog.keys(of: type).map(\.name))
    }
}
