import AlbumDomain
import ArgumentParser
import BabyAlbumApp

extension ScaleMode: ExpressibleByArgument {}

/// `--output drm`, `drm:/dev/dri/cardN` or `png:DIR`.
struct OutputOption: ExpressibleByArgument {
    let value: SlideshowConfiguration.Output

    static func drm(device: String?) -> OutputOption { OutputOption(value: .drm(device: device)) }

    init(value: SlideshowConfiguration.Output) {
        self.value = value
    }

    init?(argument: String) {
        if argument == "drm" {
            value = .drm(device: nil)
        } else if argument.hasPrefix("drm:"), argument.count > 4 {
            value = .drm(device: String(argument.dropFirst(4)))
        } else if argument == "memory" {
            value = .memory
        } else if argument.hasPrefix("png:"), argument.count > 4 {
            value = .png(directory: String(argument.dropFirst(4)))
        } else {
            return nil
        }
    }

    var defaultValueDescription: String {
        switch value {
        case .drm(nil): "drm"
        case .drm(let device?): "drm:\(device)"
        case .png(let directory): "png:\(directory)"
        case .memory: "memory"
        }
    }
}

/// `WxH`, for example `1920x1080`.
struct SizeOption: ExpressibleByArgument {
    let value: FrameSize

    init(_ value: FrameSize) {
        self.value = value
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...16384).contains(width), (1...16384).contains(height)
        else { return nil }
        value = FrameSize(width: width, height: height)
    }

    var defaultValueDescription: String { value.description }
}
