import Testing

@testable import EvdevInput

/// The default rule (buttons yes, keyboards never) and `--exit-device`, on the identities of real
/// kinds of devices. Key sets are given as the `B: KEY=` bitmap of `/proc/bus/input/devices`
/// (64-bit words, most significant first), as the kernel drivers set them.
@Suite struct ExitDeviceChoiceTests {
    /// The Raspberry Pi `gpio-key` overlay's button: gpio_keys.c sets `phys` to `gpio-keys/input0`,
    /// `BUS_HOST` 0x19, vendor/product 1/1; the overlay's one key sends `linux,code = <116>`.
    static let piButton = device(
        "/dev/input/event0", "button@3", phys: "gpio-keys/input0", bus: 0x19, vendor: 1, product: 1,
        keys: "10000000000000 0")
    /// ACPI's power button (drivers/acpi/button.c): only `KEY_POWER`.
    static let acpiPowerButton = device(
        "/dev/input/event1", "Power Button", phys: "LNXPWRBN/button/input0", bus: 0x19, vendor: 0, product: 1,
        keys: "10000000000000 0")
    /// A USB keyboard's letter-key interface; its keyboard page includes Power (usage 0x66 → KEY_POWER).
    static let usbKeyboard = device(
        "/dev/input/event2", "Logitech USB Keyboard", phys: "usb-0000:00:14.0-2/input0", bus: 0x03,
        vendor: 0x046d, product: 0xc31c,
        keys: "1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe")
    /// The same keyboard's "System Control" interface: Power, Sleep, Wake-up, no letters.
    static let usbSystemControl = device(
        "/dev/input/event3", "Logitech USB Keyboard System Control", phys: "usb-0000:00:14.0-2/input1",
        bus: 0x03, vendor: 0x046d, product: 0xc31c, keys: "c000 10000000000000 0")
    /// A tablet's button array (soc_button_array: a gpio-keys device with Power, the Windows/home key
    /// `KEY_LEFTMETA` and the volume keys).
    static let tabletButtons = device(
        "/dev/input/event4", "gpio-keys", phys: "gpio-keys/input0", bus: 0x19, vendor: 1, product: 1,
        keys: "201c000000000000 0")
    /// QEMU's virtio keyboard, reduced to the keys 1…127 (`KEY_ESC`…`KEY_COMPOSE`), `power` among them.
    static let qemuKeyboard = InputDeviceIdentity(
        path: "/dev/input/event5", name: "QEMU Virtio Keyboard", phys: "virtio0/input0", bus: 0x06,
        vendor: 0x0627, product: 1, keys: Set(1...127))

    static let all = [piButton, acpiPowerButton, usbKeyboard, usbSystemControl, tabletButtons, qemuKeyboard]

    static func device(
        _ path: String, _ name: String, phys: String, bus: UInt16, vendor: UInt16, product: UInt16, keys: String
    ) -> InputDeviceIdentity {
        InputDeviceIdentity(
            path: path, name: name, phys: phys, bus: bus, vendor: vendor, product: product,
            keys: keyBits(keys))
    }

    /// The key codes of a `B: KEY=` bitmap.
    static func keyBits(_ bitmap: String) -> Set<UInt16> {
        var keys: Set<UInt16> = []
        for (word, hex) in bitmap.split(separator: " ").reversed().enumerated() {
            let value = UInt64(hex, radix: 16)!
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { keys.insert(UInt16(word * 64 + bit)) }
        }
        return keys
    }

    func decide(_ device: InputDeviceIdentity, device spec: String? = nil, keys: [KeyCode] = [116])
        -> ExitDeviceChoice
    {
        let policy = ExitButtonPolicy(keyCodes: keys, device: spec, hold: .seconds(1))
        return ExitDeviceChoice.decide(for: device, among: Self.all, policy: policy) { $0 }
    }

    @Test func theBitmapsSayWhatTheyShould() {
        #expect(Self.piButton.keys == [116])
        #expect(Self.usbSystemControl.keys == [116, 142, 143])  // KEY_POWER, KEY_SLEEP, KEY_WAKEUP
        #expect(Self.tabletButtons.keys == [114, 115, 116, 125])
        #expect(Self.usbKeyboard.keys.isSuperset(of: [30, 44, 116]))  // KEY_A, KEY_Z, KEY_POWER
        #expect(Self.qemuKeyboard.keys.contains(116))
    }

    @Test func buttonsEndTheSlideshowByDefault() {
        for button in [Self.piButton, Self.acpiPowerButton, Self.tabletButtons] {
            let choice = decide(button)
            #expect(choice.exitKeys == [116], "\(button.name)")
            #expect(choice.reason == "a button, not a keyboard")
        }
    }

    @Test func keyboardsNeverEndItByDefault() {
        for keyboard in [Self.usbKeyboard, Self.qemuKeyboard] {
            #expect(keyboard.isKeyboard)
            let choice = decide(keyboard)
            #expect(!choice.mayExit, "\(keyboard.name)")
            #expect(choice.reason.hasPrefix("a keyboard (it has letter keys)"))
        }
        // The keyboard's Power key on its own USB interface: part of the keyboard.
        #expect(!Self.usbSystemControl.isKeyboard)
        let control = decide(Self.usbSystemControl)
        #expect(!control.mayExit)
        #expect(control.reason.hasPrefix("part of the keyboard 'Logitech USB Keyboard' (/dev/input/event2)"))
        // Control: without its keyboard present, the same interface is a button.
        let alone = ExitDeviceChoice.decide(
            for: Self.usbSystemControl, among: [Self.usbSystemControl], policy: .default
        ) { $0 }
        #expect(alone.mayExit)
    }

    /// gpio-keys devices all share one `phys` and ids: a gpio-keys keyboard does not make every
    /// other gpio-keys device "part of" it.
    @Test func gpioKeysAreNeverCompanions() {
        var gpioKeyboard = Self.usbKeyboard
        (gpioKeyboard.path, gpioKeyboard.phys, gpioKeyboard.bus) = ("/dev/input/event9", "gpio-keys/input0", 0x19)
        (gpioKeyboard.vendor, gpioKeyboard.product) = (1, 1)
        let choice = ExitDeviceChoice.decide(
            for: Self.piButton, among: [Self.piButton, gpioKeyboard], policy: .default
        ) { $0 }
        #expect(choice.mayExit)
    }

    @Test func aDeviceWithoutTheKeyNeverCounts() {
        let choice = decide(Self.piButton, keys: [172])  // KEY_HOMEPAGE
        #expect(!choice.mayExit)
        #expect(choice.reason == "it cannot send KEY_HOMEPAGE")
        #expect(decide(Self.usbKeyboard, device: "Logitech", keys: [172]).exitKeys == [])
    }

    @Test func exitDeviceChoosesExactlyWhatItNames() {
        // A keyboard, when named.
        let keyboard = decide(Self.qemuKeyboard, device: "QEMU Virtio Keyboard")
        #expect(keyboard.exitKeys == [116])
        #expect(keyboard.reason == "chosen by --exit-device 'QEMU Virtio Keyboard'")
        // By phys: the Pi's gpio-keys button (and the tablet's gpio-keys, which shares it), not ACPI's.
        #expect(decide(Self.piButton, device: "gpio-keys/input0").mayExit)
        #expect(decide(Self.tabletButtons, device: "gpio-keys/input0").mayExit)
        let acpi = decide(Self.acpiPowerButton, device: "gpio-keys/input0")
        #expect(!acpi.mayExit)
        #expect(acpi.reason == "not the --exit-device 'gpio-keys/input0'")
        #expect(!decide(Self.qemuKeyboard, device: "gpio-keys/input0").mayExit)
    }

    @Test func exitDeviceByPathLink() {
        let links = ["/dev/input/by-path/platform-button@3-event": "/dev/input/event0"]
        let policy = ExitButtonPolicy(
            keyCodes: [116], device: "/dev/input/by-path/platform-button@3-event", hold: .seconds(1))
        let resolve: (String) -> String? = { links[$0] ?? ($0.hasPrefix("/dev/input/event") ? $0 : nil) }
        #expect(ExitDeviceChoice.decide(for: Self.piButton, among: Self.all, policy: policy, resolve: resolve).mayExit)
        #expect(
            !ExitDeviceChoice.decide(for: Self.acpiPowerButton, among: Self.all, policy: policy, resolve: resolve)
                .mayExit)
    }

    @Test func describesTheChoiceForTheLog() {
        #expect(decide(Self.piButton).description == "may end the slideshow (KEY_POWER): a button, not a keyboard")
        #expect(decide(Self.usbKeyboard).description.hasPrefix("may not end the slideshow: a keyboard"))
    }
}
