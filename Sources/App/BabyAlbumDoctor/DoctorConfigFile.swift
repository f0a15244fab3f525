import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
/// The frame's settings in `/etc/default/babyalbum` (written by `deploy/install.sh`, read by
/// `babyalbum.service`), so that `babyalbum doctor` checks what the service will run with.
public struct DoctorConfigFile: Sendable, Equatable {
    /// Where `deploy/install.sh` writes it.
    public static let defaultPath = "/etc/default/babyalbum"

    /// `BABYALBUM_PHOTOS`.
    public var photos: String?
    /// `BABYALBUM_OPTS`, split into words as systemd splits `$BABYALBUM_OPTS`.
    public var options: [String]

    /// Parses the `KEY=VALUE` lines of an environment file (comments and blank lines ignored;
    /// values may be in single or double quotes).
    public init(contents: String) {
        var values: [String: String] = [:]
        for rawLine in contents.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            guard !line.hasPrefix("#"), !line.hasPrefix(";"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace()
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[key] = value
        }
        photos = values["BABYALBUM_PHOTOS"].flatMap { $0.isEmpty ? nil : $0 }
        options = (values["BABYALBUM_OPTS"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Reads `path`; `nil` when it does not exist or cannot be read.
    public static func read(_ path: String = defaultPath) -> DoctorConfigFile? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return DoctorConfigFile(contents: String(decoding: data, as: UTF8.self))
    }

    /// Every value of `--name VALUE` or `--name=VALUE` in ``options``.
    public func values(of name: String) -> [String] {
        var result: [String] = []
        var index = options.startIndex
        while index < options.endIndex {
            let word = options[index]
            if word == name, index + 1 < options.endIndex {
                result.append(options[index + 1])
                index += 2
                continue
            }
            if word.hasPrefix(name + "=") { result.append(String(word.dropFirst(name.count + 1))) }
            index += 1
        }
        return result
    }
}
