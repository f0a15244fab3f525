import Foundation
import Testing

@testable import EvdevInput

@Suite struct ExitDeviceFilterTests {
    @Test func noFilterMatchesEveryDevice() {
        for spec in [nil, ""] as [String?] {
            let filter = ExitDeviceFilter(spec)
            #expect(filter.criterion == .any)
            #expect(filter.matches(name: "QEMU Virtio Keyboard", path: "/dev/input/event1") { _ in nil })
        }
    }

    @Test func nameIsASubstringIgnoringCase() {
        let filter = ExitDeviceFilter("GPIO-keys")
        #expect(filter.criterion == .nameContains("GPIO-keys"))
        #expect(filter.matches(name: "gpio-keys", path: "/dev/input/event0"))
        #expect(filter.matches(name: "soc:gpio-keys@0", path: "/dev/input/event7"))
        #expect(!filter.matches(name: "QEMU Virtio Keyboard", path: "/dev/input/event0"))
    }

    @Test func pathMatchesTheNodeItResolvesTo() {
        let links = ["/dev/input/by-path/platform-gpio-keys-event": "/dev/input/event0"]
        let resolve: (String) -> String? = { links[$0] ?? ($0.hasPrefix("/dev/input/event") ? $0 : nil) }
        let filter = ExitDeviceFilter("/dev/input/by-path/platform-gpio-keys-event")
        #expect(filter.criterion == .path("/dev/input/by-path/platform-gpio-keys-event"))
        #expect(filter.matches(name: "gpio-keys", path: "/dev/input/event0", resolve: resolve))
        #expect(!filter.matches(name: "gpio-keys", path: "/dev/input/event1", resolve: resolve))
        let missing = ExitDeviceFilter("/dev/input/by-id/missing")
        #expect(!missing.matches(name: "x", path: "/dev/input/event0", resolve: resolve))
        #expect(ExitDeviceFilter("/dev/input/event1").matches(name: "x", path: "/dev/input/event1", resolve: resolve))
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
        #expect(filter.matches(name: "button", path: ExitDeviceFilter.resolvedPath(node)!))
        #expect(!filter.matches(name: "button", path: directory.appending(path: "event6").path))
    }
}
