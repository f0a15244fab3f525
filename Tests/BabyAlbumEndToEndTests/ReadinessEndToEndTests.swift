import Foundation
import Testing

@testable import TestSupport

/// What the real program tells systemd (`$NOTIFY_SOCKET`, a real datagram socket): `READY=1`
/// only once the screen shows what the album has, with a `STATUS=` line that says what. The
/// card's update trial trusts it (deploy/card/slot-good): a freshly updated system slot proves
/// itself only with "showing photos", never with the black of its start or of photos it cannot
/// read (a new system whose decoders are broken).
@Suite("Readiness: what the frame tells systemd")
struct ReadinessEndToEndTests {
    /// The notifications of one run, and whether the first frame was written when `READY=1` came.
    struct Told {
        var messages: [String] = []
        var frameWrittenAtReady: Bool?
        var ready: String? { messages.first { $0.split(separator: "\n").contains("READY=1") } }
        var statuses: [String] {
            messages.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }
                .map { String($0.dropFirst("STATUS=".count)) }
        }
    }

    /// Runs the program over `photos` (already filled) until it has said ready and `more`
    /// seconds after that have passed, or it ended; returns what it told and its log.
    static func run(_ photos: TemporaryFolder, _ extra: [String] = [], more: Double = 2) throws -> (Told, String) {
        let listener = try DatagramListener(abstract: false)
        let output = photos.file("../frames-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try BabyAlbumProcess(
            [
                "--photos", photos.path, "--output", "png:" + output, "--size", "320x240", "--interval", "0.5",
                "--count", "4", "--transition", "none", "--seed", "1", "--state-dir", "none", "--sticks", "none",
                "--settings", "/nonexistent",
            ] + extra, extraEnvironment: ["NOTIFY_SOCKET": listener.notifySocket])
        var told = Told()
        let deadline = Date().addingTimeInterval(Double(30 * testPatience))
        var readyAt: Date?
        func goesOn() -> Bool { readyAt.map { Date() < $0.addingTimeInterval(more) } ?? true }
        while process.process.isRunning, Date() < deadline, goesOn() {
            while let message = listener.receive() {
                told.messages.append(message)
                if readyAt == nil, told.ready != nil {
                    readyAt = Date()
                    told.frameWrittenAtReady = FileManager.default.fileExists(atPath: output + "/frame-0001.png")
                }
            }
            usleep(10_000)
        }
        let end = process.finish(timeout: 1)
        while let message = listener.receive() { told.messages.append(message) }
        return (told, end.log)
    }

    @Test func aPhotoOnTheScreenIsReadyAndSaysSo() throws {
        let photos = try TemporaryFolder()
        defer { photos.remove() }
        try FileManager.default.copyItem(
            atPath: BabyAlbumProcess.repository + "/Photos/balloons.png", toPath: photos.file("balloons.png"))
        let (told, log) = try Self.run(photos)
        let ready = try #require(told.ready, "no READY=1: \(told.messages)\n\(log)")
        #expect(ready.contains("STATUS=showing photos"), "\(told.messages)")
        #expect(told.frameWrittenAtReady == true, "READY=1 came before the photo was drawn: \(told.messages)")
        #expect(told.statuses.allSatisfy { $0 == "showing photos" }, "\(told.statuses)")
    }

    @Test func photosThatCannotBeReadAreNeverShowingPhotos() throws {
        let photos = try TemporaryFolder()
        defer { photos.remove() }
        try Data("not a photo at all, only its name says so".utf8).write(to: URL(fileURLWithPath: photos.file("a.jpg")))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(
            to: URL(fileURLWithPath: photos.file("b.png")))
        let (told, log) = try Self.run(photos)
        let ready = try #require(told.ready, "no READY=1: \(told.messages)\n\(log)")
        #expect(
            ready.contains("STATUS=no photo on the screen: none of the 2 photos could be read"), "\(told.messages)")
        #expect(!told.statuses.contains("showing photos"), "\(told.statuses)")
    }

    @Test func anEmptyAlbumIsReadyWithItsReason() throws {
        let photos = try TemporaryFolder()
        defer { photos.remove() }
        let (told, log) = try Self.run(photos)
        let ready = try #require(told.ready, "no READY=1: \(told.messages)\n\(log)")
        #expect(ready.contains("STATUS=no photo on the screen: the album has no photos"), "\(told.messages)")
    }

    @Test(arguments: ["black", "off", "dim:20"])
    func quietHoursAtTheStartAreReadyWithoutAPhoto(mode: String) throws {
        let photos = try TemporaryFolder()
        defer { photos.remove() }
        try FileManager.default.copyItem(
            atPath: BabyAlbumProcess.repository + "/Photos/balloons.png", toPath: photos.file("balloons.png"))
        // Every minute of the day is quiet, whether this machine's clock counts as set or not.
        let (told, log) = try Self.run(
            photos,
            [
                "--quiet-hours", "00:00-12:00", "--quiet-hours", "12:00-00:00", "--quiet-mode", mode,
                "--quiet-hours-without-clock", "dark",
            ])
        let ready = try #require(told.ready, "no READY=1: \(told.messages)\n\(log)")
        #expect(ready.contains("STATUS=no photo on the screen: quiet hours"), "\(told.messages)")
        #expect(!told.statuses.contains("showing photos"), "\(told.statuses)")
    }

    /// A frame with no display (`--without-display run`, the card's): ready with its first photo
    /// shown to no screen, never "showing photos", and a minute after that photo the status that
    /// proves a freshly updated system slot with no display connected (deploy/card/slot-good).
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/dri"), "a machine with no DRM device"))
    func aFrameWithNoDisplayRunsWithNoScreenAndSaysSoAMinuteOn() throws {
        let photos = try TemporaryFolder()
        defer { photos.remove() }
        for name in ["balloons.png", "duck.png"] {
            try FileManager.default.copyItem(
                atPath: BabyAlbumProcess.repository + "/Photos/" + name, toPath: photos.file(name))
        }
        let listener = try DatagramListener(abstract: false)
        let process = try BabyAlbumProcess(
            [
                "--photos", photos.path, "--output", "drm", "--without-display", "run", "--interval", "1",
                "--transition", "none", "--seed", "1", "--state-dir", "none", "--sticks", "none",
                "--settings", "/nonexistent",
            ], extraEnvironment: ["NOTIFY_SOCKET": listener.notifySocket])
        let missing = "no DRM display device: there is no /dev/dri/card*"
        let proof = "slideshow with no screen for a minute: " + missing
        var told = Told()
        let deadline = Date().addingTimeInterval(Double(120 * testPatience))
        while process.process.isRunning, Date() < deadline, !told.statuses.contains(proof) {
            while let message = listener.receive() { told.messages.append(message) }
            usleep(100_000)
        }
        let end = process.finish(timeout: 0)
        let ready = try #require(told.ready, "no READY=1: \(told.messages)\n\(end.log)")
        #expect(ready.contains("STATUS=slideshow with no screen: " + missing), "\(told.messages)")
        #expect(told.statuses.last == proof, "\(told.statuses)\n\(end.log)")
        #expect(!told.statuses.contains("showing photos"), "\(told.statuses)")
        #expect(end.log.contains("\(missing): the slideshow runs with no screen"), "\(end.log)")
        // It went on: more than one photo decoded, each shown to no one.
        #expect(end.log.split(separator: "\n").filter { $0.contains("showing ") }.count >= 2, "\(end.log)")
    }
}
