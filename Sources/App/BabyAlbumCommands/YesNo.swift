import ArgumentParser
import BabyAlbumSettings
import QuietHours

/// A setting's yes or no (the file's words for an option that is not a flag).
enum YesNo: String, ExpressibleByArgument, CaseIterable {
    case yes, no

    init?(argument: String) {
        switch argument.lowercased() {
        case "yes", "true", "on", "1": self = .yes
        case "no", "false", "off", "0": self = .no
        default: return nil
        }
    }
}
