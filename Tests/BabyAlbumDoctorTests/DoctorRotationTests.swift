import AlbumDomain
import BabyAlbumApp
import DRMDisplay
import Testing

@testable import BabyAlbumDoctor

/// `babyalbum doctor` says how photos will be turned, and why.
@Suite("Doctor: the screen's rotation")
struct DoctorRotationTests {
    func display(panelOrientation: String?) -> DoctorDisplaySection {
        let connector = DRMConnectorReport(
            id: 40, name: "DSI-1", isConnected: true, modes: [DisplayMode(width: 800, height: 1280, refreshHz: 60)],
            hasCRTC: true, panelOrientation: panelOrientation)
        let card = DRMCardReport(path: "/dev/dri/card1", driver: "vc4", hasKMS: true, connectors: [connector])
        return DoctorDisplaySection(required: true, cards: DRMProbe.mark([card]))
    }

    @Test func autoFollowsThePanelOrientationOfTheChosenConnector() {
        var section = display(panelOrientation: "Right Side Up")
        section.describeRotation(.automatic)
        #expect(section.rotation == "for a screen mounted 270° (--rotate auto: the panel orientation is Right Side Up)")
        #expect(
            section.textLines.contains(
                "    DSI-1: connected, modes 800x1280@60, panel orientation Right Side Up  <- BabyAlbum uses this"))
        #expect(
            section.textLines.last
                == "  Photos are turned for a screen mounted 270° (--rotate auto: the panel orientation is Right Side Up)"
        )
    }

    @Test func autoWithoutAPanelOrientationIsUpright() {
        var section = display(panelOrientation: nil)
        section.describeRotation(.automatic)
        #expect(section.rotation == "upright, 0° (--rotate auto: the display reports no panel orientation)")
    }

    @Test func aFixedRotationWinsOverThePanel() {
        var section = display(panelOrientation: "Right Side Up")
        section.describeRotation(.fixed(.clockwise90))
        #expect(section.rotation == "for a screen mounted 90° (--rotate)")
    }
}
