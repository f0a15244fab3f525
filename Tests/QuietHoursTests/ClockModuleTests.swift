import Foundation
import Testing

@testable import QuietHours

/// The clock module at boot on a fake sysfs: the bus found by its device-tree node, a chip that
/// does not answer is one clear line (and is taken off the bus), a tree without the bus another;
/// the state file round-trips, and a clock set by the module is trusted by the frame.
@Suite struct ClockModuleTests {
    /// A scratch folder with `i2c-1` (another bus) and, with `clockBus`, `i2c-3` whose of_node is /clock-i2c.
    func fakeSysfs(clockBus: Bool) throws -> String {
        let root = NSTemporaryDirectory() + "babyalbum-clock-module-" + UUID().uuidString
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/base/clock-i2c", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/base/soc/i2c@7e205000", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/devices/i2c-1", withIntermediateDirectories: true)
        try manager.createSymbolicLink(
            atPath: root + "/devices/i2c-1/of_node", withDestinationPath: root + "/base/soc/i2c@7e205000")
        if clockBus {
            try manager.createDirectory(atPath: root + "/devices/i2c-3", withIntermediateDirectories: true)
            try manager.createSymbolicLink(
                atPath: root + "/devices/i2c-3/of_node", withDestinationPath: root + "/base/clock-i2c")
        }
        return root
    }

    func setup(_ chip: ClockModuleChip, root: String) -> ClockModuleSetup {
        var setup = ClockModuleSetup(chip: chip)
        setup.i2cDevices = root + "/devices"
        setup.patience = .milliseconds(300)
        return setup
    }

    @Test func aChipThatDoesNotAnswerIsOneLineNamingThePinsAndIsTakenOffTheBus() throws {
        let root = try fakeSysfs(clockBus: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = setup(.ds3231, root: root).run()
        #expect(state == .notAnswering(chip: "DS3231"))
        #expect(state?.isProblem == true)
        #expect(state?.line.contains("SDA GPIO 23 pin 16") == true)
        #expect(try String(contentsOfFile: root + "/devices/i2c-3/new_device", encoding: .utf8) == "ds3231 0x68")
        #expect(try String(contentsOfFile: root + "/devices/i2c-3/delete_device", encoding: .utf8) == "0x68")
        #expect(!FileManager.default.fileExists(atPath: root + "/devices/i2c-1/new_device"), "only the clock bus")
    }

    @Test func aTreeWithoutTheBusSaysSo() throws {
        let root = try fakeSysfs(clockBus: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(setup(.pcf8523, root: root).run() == .noBus(chip: "PCF8523"))
        #expect(setup(.none, root: root).run() == nil)
    }

    @Test func theStateFileRoundTripsAndTheModulesClockIsTrusted() throws {
        let states: [ClockModuleState] = [
            .setTheClock(chip: "DS3231", rtc: "rtc0", time: "2026-11-28 15:00:00 +0000 UTC"),
            .noValidTime(chip: "DS3231", rtc: "rtc0"), .notAnswering(chip: "PCF8523"), .noBus(chip: "DS3231"),
        ]
        for state in states {
            let report = try #require(ClockModuleReport(fileText: state.fileText))
            #expect(report.line == state.line)
            #expect(report.isProblem == state.isProblem)
            #expect(report.rtc == state.rtc)
        }
        #expect(ClockModuleReport(fileText: "maybe rtc0\nx\n") == nil)
        let file = NSTemporaryDirectory() + "babyalbum-clock-module-state-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: file) }
        try states[0].fileText.write(toFile: file, atomically: true, encoding: .utf8)
        let source = WallClockSource.read(rtcClass: "/nonexistent", clockModuleFile: file)
        #expect(source == .realTimeClock("rtc0") || source == .network)
        try states[2].fileText.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(WallClockSource.read(rtcClass: "/nonexistent", clockModuleFile: file) != .realTimeClock("rtc0"))
    }
}
