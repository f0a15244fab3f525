import AlbumDomain
import ArgumentParser
import BabyAlbumApp

/// `--rotate`: how the screen is mounted, `auto` or degrees clockwise.
struct RotateOption: ExpressibleByArgument {
    let value: RotationSetting

    init?(argument: String) {
        if argument == "auto" {
            value = .automatic
        } else if let degrees = Int(argument), let rotation = ScreenRotation(degrees: degrees) {
            value = .fixed(rotation)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["auto", "0", "90", "180", "270"] }
}
