import LinuxInterfaces
import PhotoCodec

/// The decode workers' programs, by photo format. The package installs one program a format
/// family (`babyalbum-decoder-png`, `-jpeg`, `-webp`, `-heif` in `/usr/libexec/babyalbum/`), each
/// linking its own decoder library alone, so that a JPEG's worker maps libjpeg and nothing of
/// libheif; a build folder has `babyalbum-decoder`, with every codec, for the formats without one.
public struct DecodeWorkerPrograms: Sendable, Equatable {
    /// The format families that have a program of their own, by the suffix of its name.
    public static let families = ["png", "jpeg", "webp", "heif"]
    /// The program of the formats without one of their own (every codec built in).
    public var general: DecodeWorkerCommand
    /// The programs of one format family, by family (``families``).
    public var byFamily: [String: DecodeWorkerCommand]

    /// `general` for every format, and `byFamily` for the families it names.
    public init(_ general: DecodeWorkerCommand, byFamily: [String: DecodeWorkerCommand] = [:]) {
        self.general = general
        self.byFamily = byFamily
    }

    /// The family of `format`: HEIC, HEIF and AVIF are all libheif's.
    public static func family(of format: PhotoFormat) -> String {
        switch format {
        case .png: "png"
        case .jpeg: "jpeg"
        case .webp: "webp"
        case .heic, .heif, .avif: "heif"
        }
    }

    /// The program that decodes `format`.
    public func command(for format: PhotoFormat) -> DecodeWorkerCommand {
        byFamily[Self.family(of: format)] ?? general
    }

    /// The programs installed with this program, found as ``DecodeWorkerCommand/installed(besides:named:)``
    /// finds each: a family's program where it exists, `babyalbum-decoder` for the rest.
    public static func installed(besides program: String? = SymbolicLink.target(of: "/proc/self/exe"))
        -> DecodeWorkerPrograms
    {
        var byFamily: [String: DecodeWorkerCommand] = [:]
        for family in families {
            let command = DecodeWorkerCommand.installed(
                besides: program, named: DecodeWorkerCommand.programName + "-" + family)
            if PathAccess.mayExecute(command.executable) { byFamily[family] = command }
        }
        return DecodeWorkerPrograms(DecodeWorkerCommand.installed(besides: program), byFamily: byFamily)
    }
}
