import Foundation
import Logging
import QuietHours
import Synchronization
import Testing

/// Quiet hours before the wall clock is set: they say nothing they do not know.
@Suite struct UnsetClockTests {
    /// Quiet from 19:00 to 07:00 of a day that starts at `midnight`, as a plain timetable.
    struct Night: QuietTimetable {
        let midnight = Date(timeIntervalSince1970: 1_780_000_000)
        func isQuiet(at date: Date) -> Bool {
            let hour = date.timeIntervalSince(midnight) / 3600
            return hour < 7 || hour >= 19
        }
        func nextEdge(after date: Date) -> Date? {
            let hour = date.timeIntervalSince(midnight) / 3600
            return midnight.addingTimeInterval((hour < 7 ? 7 : hour < 19 ? 19 : 31) * 3600)
        }
    }

    let night = Night()
    var threeAM: Date { night.midnight.addingTimeInterval(3 * 3600) }
    var noon: Date { night.midnight.addingTimeInterval(12 * 3600) }

    /// The clock's source as a test sets it.
    final class FakeClock: Sendable {
        let source = Mutex<WallClockSource?>(nil)
        func set(_ value: WallClockSource?) { source.withLock { $0 = value } }
    }

    func timetable(_ policy: UnsetClockPolicy, source: FakeClock) -> ClockAwareTimetable<Night> {
        ClockAwareTimetable(
            schedule: night, policy: policy, logger: Logger(label: "test"), recheck: 30,
            clockSource: { source.source.withLock { $0 } })
    }

    @Test func keepShowingLightsTheDisplayAtAnyHourUntilTheClockIsSet() {
        let source = FakeClock()
        let timetable = timetable(.keepShowing, source: source)
        #expect(!timetable.clockIsKnown)
        #expect(!timetable.isQuiet(at: threeAM))
        #expect(!timetable.isQuiet(at: noon))
        #expect(timetable.nextEdge(after: noon) == noon.addingTimeInterval(30), "looked at again in 30 s")
    }

    @Test func darkKeepsTheDisplayQuietAtAnyHourUntilTheClockIsSet() {
        let source = FakeClock()
        let timetable = timetable(.dark, source: source)
        #expect(timetable.isQuiet(at: threeAM))
        #expect(timetable.isQuiet(at: noon))
        #expect(timetable.nextEdge(after: threeAM) == threeAM.addingTimeInterval(30))
    }

    @Test(arguments: [UnsetClockPolicy.keepShowing, .dark])
    func onceTheClockIsSetTheWindowsDecideAndStayInCharge(policy: UnsetClockPolicy) {
        let source = FakeClock()
        let timetable = timetable(policy, source: source)
        _ = timetable.isQuiet(at: noon)
        source.set(.network)
        #expect(timetable.isQuiet(at: threeAM))
        #expect(!timetable.isQuiet(at: noon))
        #expect(timetable.nextEdge(after: noon) == night.midnight.addingTimeInterval(19 * 3600))
        // A clock once set stays trusted: a later unsynchronised reading does not undo it.
        source.set(nil)
        #expect(timetable.clockIsKnown)
        #expect(timetable.isQuiet(at: threeAM))
    }

    @Test func aRealTimeClockThatSetTheSystemClockAtBootIsTrusted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rtc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, flag) in [("rtc0", "0\n"), ("rtc1", "1\n")] {
            let device = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            try flag.write(to: device.appendingPathComponent("hctosys"), atomically: true, encoding: .utf8)
        }
        let source = WallClockSource.read(rtcClass: folder.path)
        // This machine's own clock may be synchronised, which comes first.
        #expect(source == .realTimeClock("rtc1") || source == .network)
        #expect(WallClockSource.realTimeClock("rtc1").description == "the real-time clock rtc1")
    }

    @Test func thePolicyIsNamedAsTheSettingSpellsIt() {
        #expect(UnsetClockPolicy(rawValue: "keep-showing") == .keepShowing)
        #expect(UnsetClockPolicy(rawValue: "dark") == .dark)
        #expect(UnsetClockPolicy.allCases.map(\.description) == ["keep-showing", "dark"])
    }
}
