/// `clock-module`: the real-time clock module on the card's own I2C bus (`/clock-i2c`, GPIO 23
/// SDA and GPIO 24 SCL), for a home without Wi-Fi.
public enum ClockModuleChip: String, CaseIterable, Sendable, CustomStringConvertible {
    /// No module (the default).
    case none
    /// A DS3231 (driver `rtc-ds1307`).
    case ds3231
    /// A PCF8523 (driver `rtc-pcf8523`).
    case pcf8523

    public var description: String { rawValue }

    /// The chip's name as the kernel's `new_device` takes it, and in the lines.
    var deviceName: String { rawValue }
    /// The chip's I2C address (both answer at 0x68).
    var address: Int { 0x68 }
    /// The chip's name in a line.
    var displayName: String { rawValue.uppercased() }
}

/// What the clock module did at boot, one line for the log and `babyalbum doctor`.
public enum ClockModuleState: Equatable, Sendable {
    /// The system clock was set from the module's time (`rtc` is its RTC, like `rtc0`).
    case setTheClock(chip: String, rtc: String, time: String)
    /// The module answers but holds no valid time yet (a new battery): network time sets it.
    case noValidTime(chip: String, rtc: String)
    /// No chip answered on the clock bus: unwired, or no module.
    case notAnswering(chip: String)
    /// The card's device tree has no clock bus.
    case noBus(chip: String)

    /// Whether the frame may trust the clock because of the module.
    public var setsTheClock: Bool {
        if case .setTheClock = self { return true }
        return false
    }

    /// The RTC that set the clock, if one did.
    public var rtc: String? {
        if case .setTheClock(_, let rtc, _) = self { return rtc }
        return nil
    }

    /// The one line, with what to do about a problem.
    public var line: String {
        switch self {
        case .setTheClock(let chip, let rtc, let time):
            "clock module: the system clock was set from the \(chip) (\(rtc)) to \(time)"
        case .noValidTime(let chip, let rtc):
            "clock module: the \(chip) (\(rtc)) holds no valid time yet: network time will set it, or set it once with `hwclock --systohc`"
        case .notAnswering(let chip):
            "clock module: no \(chip) answers on the clock bus: check its wiring (SDA GPIO 23 pin 16, 3.3 V pin 17, SCL GPIO 24 pin 18, GND pin 20)"
        case .noBus(let chip):
            "clock module: the card's device tree has no clock bus (/clock-i2c), so the \(chip) cannot be used: make the card again with scripts/image"
        }
    }

    /// Whether it is a problem (a warning in doctor).
    public var isProblem: Bool { ClockModuleReport.problemKinds.contains(kind) }

    private var kind: String {
        switch self {
        case .setTheClock: "set"
        case .noValidTime: "no-valid-time"
        case .notAnswering: "not-answering"
        case .noBus: "no-bus"
        }
    }

    /// The state file's text: the kind and the RTC, then the line.
    public var fileText: String { "\(kind) \(rtc ?? "-")\n\(line)\n" }
}

/// The clock module's state file as it was read back: whether the module set the clock, from
/// which RTC, and the line.
public struct ClockModuleReport: Equatable, Sendable {
    /// The RTC that set the clock, if one did.
    public let rtc: String?
    /// The line.
    public let line: String
    /// Whether it is a problem.
    public let isProblem: Bool

    /// Reads ``ClockModuleState/fileText``; `nil` for anything else.
    public init?(fileText: String) {
        let lines = fileText.split(separator: "\n").map(String.init)
        guard lines.count == 2 else { return nil }
        let words = lines[0].split(separator: " ").map(String.init)
        guard words.count == 2, (["set", "no-valid-time"] + Self.problemKinds).contains(words[0]) else { return nil }
        rtc = words[0] == "set" ? words[1] : nil
        line = lines[1]
        isProblem = Self.problemKinds.contains(words[0])
    }

    static let problemKinds = ["not-answering", "no-bus"]

    /// The state file on the card.
    public static let file = "/run/babyalbum-clock-module"
}
