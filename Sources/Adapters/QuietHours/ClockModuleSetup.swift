import CClockShims
import LinuxInterfaces

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clock module at boot, from userspace (the kernel's own `hctosys` runs before the
/// `i2c-gpio` module loads): finds the card's clock bus (the I2C adapter whose device-tree node
/// is `/clock-i2c`), instantiates the chip on it (`new_device`), and sets the system clock from
/// the module when it holds a valid time. Once network time has set the clock, the kernel writes
/// it to `rtc0` every 11 minutes (`CONFIG_RTC_SYSTOHC`), which a module on a Pi 3/4 is.
public struct ClockModuleSetup {
    /// The chip named by `clock-module`.
    public let chip: ClockModuleChip
    /// The kernel's I2C devices.
    public var i2cDevices = "/sys/bus/i2c/devices"
    /// How long the bus and the chip's RTC are waited for.
    public var patience: Duration = .seconds(20)
    /// Times before this (2025-01-01) are not a valid time: a module that lost its time reads 2000.
    public var earliestValidTime: Int64 = 1_735_689_600

    /// Creates the setup for `chip`.
    public init(chip: ClockModuleChip) {
        self.chip = chip
    }

    /// Does it and says what happened; `nil` for `clock-module = none`.
    public func run() -> ClockModuleState? {
        guard chip != .none else { return nil }
        let name = chip.displayName
        guard let adapter = wait(for: clockBus) else { return .noBus(chip: name) }
        let device =
            "\(adapter)/\(adapter.split(separator: "/").last!.dropFirst(4))-00\(String(chip.address, radix: 16))"
        if !FileManager.default.fileExists(atPath: device) {
            try? "\(chip.deviceName) 0x\(String(chip.address, radix: 16))".write(
                toFile: "\(adapter)/new_device", atomically: false, encoding: .utf8)
        }
        guard let rtc = wait(for: { rtcName(of: device) }) else {
            try? "0x\(String(chip.address, radix: 16))".write(
                toFile: "\(adapter)/delete_device", atomically: false, encoding: .utf8)
            return .notAnswering(chip: name)
        }
        guard let seconds = rtcTime(rtc), seconds >= earliestValidTime, CClockShims_set_wall_clock(seconds) == 0 else {
            return .noValidTime(chip: name, rtc: rtc)
        }
        return .setTheClock(chip: name, rtc: rtc, time: "\(Date(timeIntervalSince1970: Double(seconds))) UTC")
    }

    /// The adapter (`/sys/bus/i2c/devices/i2c-N`) whose device-tree node is `/clock-i2c`.
    func clockBus() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: i2cDevices)) ?? []
        return names.sorted().lazy.map { "\(i2cDevices)/\($0)" }.first { adapter in
            adapter.split(separator: "/").last!.hasPrefix("i2c-")
                && (resolvedPath("\(adapter)/of_node") ?? "").hasSuffix("/clock-i2c")
        }
    }

    private func rtcName(of device: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(device)/rtc")) ?? []
        return names.sorted().first { $0.hasPrefix("rtc") }
    }

    /// The RTC's time in seconds since the epoch; `nil` when it holds none (the read fails).
    private func rtcTime(_ rtc: String) -> Int64? {
        let text = try? String(contentsOfFile: "/sys/class/rtc/\(rtc)/since_epoch", encoding: .utf8)
        return text.flatMap { Int64($0.filter(\.isNumber)) }
    }

    private func wait(for look: () -> String?) -> String? {
        let end = ContinuousClock.now.advanced(by: patience)
        while true {
            if let found = look() { return found }
            if ContinuousClock.now >= end { return nil }
            sleepThread(for: .milliseconds(250))
        }
    }
}
