import DRMDisplay
import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CardChoiceTests {
    let mode = DisplayMode(width: 1920, height: 1080, refreshHz: 60, isPreferred: true)

    func connector(_ id: UInt32, _ name: String, connected: Bool) -> DRMConnectorReport {
        DRMConnectorReport(id: id, name: name, isConnected: connected, modes: connected ? [mode] : [], hasCRTC: true)
    }

    @Test func skipsARenderOnlyCardAndADisconnectedConnector() {
        // A Raspberry Pi 4: card0 is v3d (render only), card1 is vc4 with two HDMI outputs.
        let cards = DRMProbe.mark([
            DRMCardReport(path: "/dev/dri/card0", driver: "v3d", hasKMS: false),
            DRMCardReport(
                path: "/dev/dri/card1", driver: "vc4", hasKMS: true,
                connectors: [connector(32, "HDMI-A-1", connected: false), connector(42, "HDMI-A-2", connected: true)]),
        ])
        #expect(cards.map(\.isChosen) == [false, true])
        #expect(cards[1].connectors.map(\.isChosen) == [false, true])
    }

    @Test func aConnectorWithoutAnyCRTCIsNotUsable() {
        var busy = connector(1, "DSI-1", connected: true)
        busy.hasCRTC = false
        let cards = DRMProbe.mark([DRMCardReport(path: "/dev/dri/card0", hasKMS: true, connectors: [busy])])
        #expect(!cards[0].isChosen)
        #expect(DRMProbe.failure(cards).description.contains("no connected display"))
    }

    @Test func explainsAMissingDevice() {
        let message = DRMProbe.failure([]).description
        #expect(message.contains("no DRM display device"))
        #expect(message.contains("--output png"))
    }

    @Test func explainsARenderOnlyMachine() {
        let message = DRMProbe.failure([DRMCardReport(path: "/dev/dri/card0", driver: "v3d", hasKMS: false)])
            .description
        #expect(message.contains("no card has display outputs"))
        #expect(message.contains("v3d"))
    }

    @Test func namesTheVideoGroupWhenPermissionIsDenied() {
        let message = DRMProbe.failure([
            DRMCardReport(path: "/dev/dri/card0", hasKMS: false, error: "permission denied", openErrno: EACCES)
        ]).description
        #expect(message.contains("permission denied opening /dev/dri/card0"))
        #expect(message.contains("'video' group"))
    }

    @Test func thePermissionErrorWrapsTheFailedOpen() {
        let error = DRMProbe.failure([
            DRMCardReport(path: "/dev/dri/card0", hasKMS: false, error: "permission denied", openErrno: EPERM)
        ])
        #expect(error.failure == SystemCallFailure(operation: "open", path: "/dev/dri/card0", code: EPERM))
        // Control: an error without a system call behind it has none.
        #expect(DRMProbe.failure([]).failure == nil)
    }

    @Test func aMissingCardNodeIsReportedWithTheErrnoOfItsOpen() {
        let path = "/tmp/babyalbum-no-such-card-\(getpid())"
        let report = DRMProbe.card(path)
        #expect(report.openErrno == ENOENT)
        #expect(report.error?.contains("\(path) does not exist") == true)
        #expect(!report.isChosen && !report.hasKMS)
        #expect(DRMProbe.failure([report]).description.contains("no card has display outputs"))
    }

    @Test func namesTheOutputsWhenNothingIsPluggedIn() {
        let message = DRMProbe.failure([
            DRMCardReport(
                path: "/dev/dri/card1", hasKMS: true, connectors: [connector(32, "HDMI-A-1", connected: false)])
        ]).description
        #expect(message.contains("no connected display"))
        #expect(message.contains("/dev/dri/card1 HDMI-A-1"))
    }

    @Test func aMissingDisplayIsNamedForEachWayOfHavingNone() {
        let unplugged = DRMCardReport(
            path: "/dev/dri/card1", driver: "vc4", hasKMS: true,
            connectors: [connector(32, "HDMI-A-1", connected: false)])
        #expect(DRMProbe.missingDisplay([]) == "no DRM display device: there is no /dev/dri/card*")
        #expect(
            DRMProbe.missingDisplay([DRMCardReport(path: "/dev/dri/card0", driver: "v3d", hasKMS: false)])
                == "no DRM display device: no card has display outputs: /dev/dri/card0 (v3d)")
        #expect(
            DRMProbe.missingDisplay(DRMProbe.mark([unplugged]))
                == "no connected display: nothing is connected to /dev/dri/card1 HDMI-A-1")
    }

    @Test func aDisplayThatIsThereOrCannotBeOpenedIsNotMissing() {
        let plugged = DRMCardReport(
            path: "/dev/dri/card1", driver: "vc4", hasKMS: true,
            connectors: [connector(42, "HDMI-A-2", connected: true)])
        #expect(DRMProbe.missingDisplay(DRMProbe.mark([plugged])) == nil)
        // A card this user may not open is a permission problem, told as such, not a missing display.
        let denied = DRMCardReport(path: "/dev/dri/card0", hasKMS: false, error: "permission denied", openErrno: EACCES)
        #expect(DRMProbe.missingDisplay([denied]) == nil)
        #expect(DRMProbe.failure([denied]).description.contains("'video' group"))
    }

    @Test func reportsAreCodable() throws {
        let report = DRMCardReport(
            path: "/dev/dri/card0", driver: "bochs-drm", hasKMS: true,
            connectors: [connector(31, "Virtual-1", connected: true)])
        #expect(report.connectors[0].isUsable)
        let _: any Codable = report
    }
}
