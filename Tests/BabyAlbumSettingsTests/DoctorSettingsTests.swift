import BabyAlbumDoctor
import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// `babyalbum doctor` builds the frame's settings with `show`'s resolver and option groups: the
/// settings file, under the service's options, under the doctor's own.
@Suite struct DoctorSettingsTests {
    let folder: String
    let settingsPath: String

    init() throws {
        folder = NSTemporaryDirectory() + "babyalbum-doctor-settings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        settingsPath = folder + "/babyalbum.conf"
        try "quiet-mode = black\nexit-hold = 3\nphotos = \(folder)/b\n".write(
            toFile: settingsPath, atomically: true, encoding: .utf8)
    }

    @Test func theDoctorsOwnOptionsAreLeftOutOfTheFramesCommandLine() {
        let words = ["--json", "--config", "/x", "--photos", "/p", "--exit-hold=2", "--quick", "--settings-file", "/s"]
        #expect(Doctor.sharedOptions(in: words) == ["--photos", "/p", "--exit-hold=2"])
    }

    @Test func theServiceWinsOverTheFileAndTheDoctorOverBoth() throws {
        let service = DoctorConfigFile(
            contents:
                "BABYALBUM_PHOTOS=\(folder)/a\nBABYALBUM_OPTS=\"--exit-hold 2 --exit-key KEY_ESC --exit-key 116\"\n")
        let frame = try Doctor.resolveFrame(
            given: ["--json", "--exit-key", "KEY_HOMEPAGE"], service: service, settingsFile: settingsPath
        ).get()
        #expect(frame.show.exitButton.exitKey == ["KEY_HOMEPAGE"], "the doctor's keys replace the service's")
        #expect(frame.show.exitButton.exitHold.value == 2, "the service's hold wins over the file's 3")
        #expect(frame.show.folders.photos == ["\(folder)/a"], "the service's folder wins over the file's")
        #expect(frame.show.quiet.quietMode == .black, "the file's quiet mode, set nowhere else")
        #expect(frame.report.problems.isEmpty, "\(frame.report.problems)")
    }

    @Test func withoutServiceOptionsTheFileDecides() throws {
        let frame = try Doctor.resolveFrame(
            given: [], service: DoctorConfigFile(contents: ""), settingsFile: settingsPath
        ).get()
        #expect(frame.show.exitButton.exitHold.value == 3)
        #expect(frame.show.exitButton.exitKey == ["KEY_POWER"], "the default")
        #expect(frame.show.folders.photos == ["\(folder)/b"])
    }

    @Test func aBrokenServiceLineIsAnError() {
        let service = DoctorConfigFile(contents: "BABYALBUM_OPTS=\"--exit-hold 99\"\n")
        let frame = Doctor.resolveFrame(given: [], service: service, settingsFile: settingsPath)
        #expect(throws: (any Error).self) { try frame.get() }
    }
}
