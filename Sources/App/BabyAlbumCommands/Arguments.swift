import AlbumDomain
import ArgumentParser
import BabyAlbumApp
import DRMDisplay

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ScaleMode: ExpressibleByArgument {}
extension SlideshowConfiguration.WithoutDisplay: ExpressibleByArgument {}

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

    /// Whether `directory` is `folder` or lies inside it, symbolic links resolved (as far as the
    /// path exists: the output folder may not exist yet).
    static func isInside(_ directory: String, folder: String) -> Bool {
        func resolved(_ path: String) -> [String] {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().pathComponents
        }
        let inner = resolved(directory)
        let outer = resolved(folder)
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
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

/// `WxH`, for example `1920x1080`: two numbers of at most 6 digits. The range is checked by
/// `OptionRanges.check(_:_:)`, so a size out of range is a usage error naming the range.
package struct SizeOption: ExpressibleByArgument {
    /// The size.
    package let value: FrameSize

    /// The option holding `value`.
    package init(_ value: FrameSize) {
        self.value = value
    }

    /// `WxH`, or `nil`.
    package init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ (1...6).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
        else { return nil }
        value = FrameSize(width: width, height: height)
    }

    /// The size as `--help` shows it.
    package var defaultValueDescription: String { value.description }
}

/// `--mode`: `native` (or `preferred`) for the display's own mode, or `WxH` as for `--size`.
struct ModeOption: ExpressibleByArgument {
    let value: ModeRequest

    init?(argument: String) {
        switch argument.lowercased() {
        case "native", "preferred": value = .native
        default:
            guard let size = SizeOption(argument: argument) else { return nil }
            value = .size(size.value)
        }
    }
}
