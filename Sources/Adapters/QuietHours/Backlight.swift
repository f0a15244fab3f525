import LinuxInterfaces

/// A panel's backlight in sysfs (`/sys/class/backlight/NAME`): `brightness` from 0 to
/// `max_brightness`. Found rather than named: `rpi_backlight`, `10-0045`, `4-0045` (max 31)
/// and laptop and tablet panels all differ.
public struct Backlight: Equatable, Sendable {
    /// Where the kernel lists backlights.
    public static let classDirectory = "/sys/class/backlight"

    /// The backlight's folder, e.g. `/sys/class/backlight/10-0045`.
    public let directory: String
    /// Its full brightness.
    public let maxBrightness: Int

    /// A backlight whose folder and full brightness are known.
    public init(directory: String, maxBrightness: Int) {
        self.directory = directory
        self.maxBrightness = maxBrightness
    }

    /// The first backlight (by name) in `classDirectory` with a readable positive
    /// `max_brightness`; `nil` when there is none (HDMI screens have none).
    public static func find(in classDirectory: String = classDirectory) -> Backlight? {
        let names = (try? directoryEntries(classDirectory)) ?? []
        for name in names.sorted() {
            let directory = classDirectory + "/" + name
            if let max = readNumber(directory + "/max_brightness"), max > 0 {
                return Backlight(directory: directory, maxBrightness: max)
            }
        }
        return nil
    }

    /// The brightness now.
    public func brightness() throws(BacklightError) -> Int {
        guard let value = Self.readNumber(brightnessFile) else { throw .unreadable(brightnessFile) }
        return value
    }

    /// Sets the brightness (clamped to 0…`maxBrightness`).
    public func setBrightness(_ value: Int) throws(BacklightError) {
        let clamped = min(max(value, 0), maxBrightness)
        do throws(SystemCallFailure) {
            let file = try FileDescriptor(opening: brightnessFile, .writeOnly)
            try file.write(Array("\(clamped)\n".utf8))
            try file.close()
        } catch {
            throw .unwritable(brightnessFile, reason: errnoDescription(error.code))
        }
    }

    /// The brightness for `percent` of full (never 0, which turns some panels off).
    public func brightness(percent: Int) -> Int {
        max(1, (maxBrightness * min(max(percent, 0), 100) + 50) / 100)
    }

    /// Whether this process may set the brightness.
    public var isWritable: Bool { PathAccess.mayWrite(brightnessFile) }

    private var brightnessFile: String { directory + "/brightness" }

    private static func readNumber(_ path: String) -> Int? {
        guard let bytes = try? fileContents(path, limit: 4096) else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).trimmingWhitespace())
    }
}
