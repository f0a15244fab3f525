import DRMDisplay
import Testing

@Suite struct UeventTests {
    func datagram(_ fields: [String]) -> [UInt8] { fields.flatMap { Array($0.utf8) + [0] } }

    @Test func recognisesADRMHotplugEventForItsCard() throws {
        let event = try #require(
            Uevent(
                datagram: datagram([
                    "change@/devices/platform/gpu/drm/card1", "ACTION=change",
                    "DEVPATH=/devices/platform/gpu/drm/card1", "SUBSYSTEM=drm", "HOTPLUG=1", "DEVNAME=dri/card1",
                    "SEQNUM=1234",
                ])))
        #expect(event.properties["HOTPLUG"] == "1")
        #expect(event.isDisplayChange(card: "card1"))
        #expect(!event.isDisplayChange(card: "card0"))
    }

    @Test func ignoresOtherSubsystemsAndUdevMessages() {
        let input = Uevent(
            datagram: datagram([
                "add@/devices/virtual/input/input9", "ACTION=add", "SUBSYSTEM=input",
                "DEVPATH=/devices/virtual/input/input9",
            ]))
        #expect(input?.isDisplayChange(card: "card0") == false)
        #expect(Uevent(datagram: Array("libudev".utf8) + [0, 0xfe, 0xed]) == nil)
        #expect(Uevent(datagram: []) == nil)
    }
}
