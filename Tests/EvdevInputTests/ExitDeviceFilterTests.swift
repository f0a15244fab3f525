import Foundation
import Testing

@testable import EvdevInput

@Suite struct ExitDeviceFilterTests {
    let gpioButton = InputDeviceIdentity(
        path: "/dev/input/event0", name: "button@3", phys: "gpio-keys/input0", keys: [116])
    let keyboard = InputDeviceIdentity(
        path: "/dev/input/event1", name: "QEMU Virtio Keyboard", phys: "virtio0/input0", keys: [30, 116])

    @Test func noExitDeviceNamesNoDevice() {
        for spec in [nil, ""] as [String?] {
            let filter = ExitDeviceFilter(spec)
            #expect(filter.criterion == .buttonsOnly)
            #expect(!filter.names(gpioButton) { _ in nil })
        }
    }

    @Test func nameOrPhysIsASubstringIgnoringCase() {
        let byName = ExitDeviceFilter("virtio KEYBOARD")
        #expect(byName.criterion == .nameOrPhysContains("virtio KEYBOARD"))
        #expect(byName.names(keyboard))
        #expect(!byName.names(gpioButton))
        let byPhys = ExitDeviceFilter("GPIO-keys/input0")
        #expect(byPhys.names(gpioButton))
        #expect(!byPhys.names(keyboard))
    }

    @Test func pathMatchesTheNodeItResolvesTo() {
        let links = ["/dev/input/by-path/platform-button@3-event": "/dev/input/event0"]
        let resolve: (String) -> String? = { links[$0] ?? ($0.hasPrefix("/dev/input/event") ? $0 : nil) }
        let filter = ExitDeviceFilter("/dev/input/by-path/platform-button@3-event")
        #expect(filter.criterion == .path("/dev/input/by-path/platform-button@3-event"))
        #expect(filter.names(gpioButton, resolve: resolve))
        #expect(!filter.names(keyboard, resolve: resolve))
        let missing = ExitDeviceFilter("/dev/input/by-id/missing")
        #expect(!missing.names(gpioButton, resolve: resolve))
        #expect(ExitDeviceFilter("/dev/input/event1").names(keyboard, resolve: resolve))
    }

    /// The default resolver follows real symbolic links (`realpath`).
    @Test func resolvesRealSymlinks() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "evdev-filter-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = directory.appending(path: "event5").path
        let link = directory.appending(path: "by-id-button").path
        #expect(FileManager.default.createFile(atPath: node, contents: nil))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "event5")
        let filter = ExitDeviceFilter(link)
        var device = gpioButton
        device.path = ExitDeviceFilter.resolvedPath(node)!
        #expect(filter.names(device))
        device.path = directory.appending(path: "event6").path
        #expect(!filter.names(device))
    }
}
