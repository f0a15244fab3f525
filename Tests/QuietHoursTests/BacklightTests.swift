import AlbumDomain
import Foundation
import QuietHours
import Synchronization
import Testing

/// The backlight on a fake sysfs class folder (the path is injectable), and the view that is
/// the only code to touch it.
@Suite struct BacklightTests {
    /// A fresh class folder with a backlight per `(name, max, brightness)`.
    static func classFolder(_ backlights: [(String, String, String)]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backlight-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, max, brightness) in backlights {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            try Data(max.utf8).write(to: URL(fileURLWithPath: folder + "/" + name + "/max_brightness"))
            try Data(brightness.utf8).write(to: URL(fileURLWithPath: folder + "/" + name + "/brightness"))
        }
        return folder
    }

    static func brightness(_ folder: String, _ name: String) -> String {
        String(decoding: FileManager.default.contents(atPath: folder + "/" + name + "/brightness")!, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func findsTheFirstUsableBacklightWhateverItsName() throws {
        let folder = try Self.classFolder([
            ("zz-panel", "255\n", "200\n"), ("4-0045", "31\n", "31\n"), ("broken", "x", "1"),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(Backlight.find(in: folder) == Backlight(directory: folder + "/4-0045", maxBrightness: 31))
        let none = try Self.classFolder([("off", "0\n", "0\n")])
        defer { try? FileManager.default.removeItem(atPath: none) }
        #expect(Backlight.find(in: none) == nil)
        #expect(Backlight.find(in: none + "/missing") == nil)
    }

    @Test(arguments: [(31, 10, 3), (31, 1, 1), (31, 100, 31), (255, 20, 51), (1, 1, 1), (100, 0, 1)])
    func percentagesNeverTurnThePanelOff(max: Int, percent: Int, brightness: Int) {
        #expect(Backlight(directory: "/x", maxBrightness: max).brightness(percent: percent) == brightness)
    }

    @Test func theViewDimsFromTheViewModelAndRestoresOnWakingAndAtTheEnd() async throws {
        let folder = try Self.classFolder([("10-0045", "255\n", "200\n")])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let backlight = try #require(Backlight.find(in: folder))
        let inner = RecordingView()
        let view = DimmingFrameView(over: inner, backlight: backlight, logger: .init(label: "test"))
        var dimmed = FrameViewModel(content: .waiting, displayPower: .on)
        dimmed.backlightPercent = 20
        let lit = FrameViewModel(content: .waiting, displayPower: .on)

        try await view.render(lit)
        #expect(Self.brightness(folder, "10-0045") == "200", "full brightness is left alone")
        try await view.render(dimmed)
        #expect(Self.brightness(folder, "10-0045") == "51")
        try await view.render(dimmed)
        try await view.render(lit)
        #expect(Self.brightness(folder, "10-0045") == "200", "waking puts back the brightness from before")
        try await view.render(dimmed)
        try await view.render(FrameViewModel(content: .ended, displayPower: .on))
        #expect(Self.brightness(folder, "10-0045") == "200", "the end puts it back")
        try await view.render(dimmed)
        view.restore()
        #expect(Self.brightness(folder, "10-0045") == "200")
        #expect(inner.drawn.withLock { $0.count } == 7, "every view model reaches the screen")
    }

    @Test(arguments: [
        ("off", QuietMode.off), ("black", .black), ("dim", .dim(percent: 10)), ("dim:30", .dim(percent: 30)),
        ("dim:1", .dim(percent: 1)), ("dim:100", .dim(percent: 100)),
    ])
    func parsesQuietModes(text: String, mode: QuietMode) {
        #expect(QuietMode(argument: text) == mode)
        #expect(QuietMode(argument: mode.description) == mode)
    }

    @Test(arguments: ["", "Off", "dim:0", "dim:101", "dim:", "dim:x", "dim30", "bright"])
    func rejectsOtherQuietModes(text: String) {
        #expect(QuietMode(argument: text) == nil)
    }

    @Test func dimWithoutABacklightFallsBackToBlack() {
        let backlight = Backlight(directory: "/x", maxBrightness: 31)
        #expect(QuietMode.dim(percent: 20).display(backlight: backlight) == .dimmed(percent: 20))
        #expect(QuietMode.dim(percent: 20).display(backlight: nil) == .black)
        #expect(QuietMode.off.display(backlight: backlight) == .powerOff)
        #expect(QuietMode.black.display(backlight: backlight) == .black)
    }
}

/// A view that keeps what it was asked to draw.
final class RecordingView: FrameView {
    let drawn = Mutex<[FrameViewModel]>([])
    func render(_ viewModel: FrameViewModel) async throws { drawn.withLock { $0.append(viewModel) } }
}
