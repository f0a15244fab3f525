/// What an input device says about itself, as in `/proc/bus/input/devices`: enough to decide whether
/// it may end the slideshow. A plain value, so the decision is testable without devices.
public struct InputDeviceIdentity: Sendable, Equatable {
    /// The event node (`/dev/input/event3`).
    public var path: String
    /// The device name (`N: Name=`, `libevdev_get_name`).
    public var name: String
    /// The physical path (`P: Phys=`, `libevdev_get_phys`): `gpio-keys/input0` for every gpio-keys
    /// device, `usb-0000:00:14.0-2/input1` for the second interface of a USB device; empty if none.
    public var phys: String
    /// The unique identifier (`U: Uniq=`), such as a Bluetooth device's address; empty if none.
    public var uniq: String
    /// The bus (`I: Bus=`; `BUS_HOST` 0x19 for gpio-keys, `BUS_USB` 0x03).
    public var bus: UInt16
    /// The vendor id (`I: Vendor=`).
    public var vendor: UInt16
    /// The product id (`I: Product=`).
    public var product: UInt16
    /// Every key code it can send (`B: KEY=`).
    public var keys: Set<UInt16>

    /// Creates an identity.
    public init(
        path: String, name: String, phys: String = "", uniq: String = "", bus: UInt16 = 0, vendor: UInt16 = 0,
        product: UInt16 = 0, keys: Set<UInt16>
    ) {
        self.path = path
        self.name = name
        self.phys = phys
        self.uniq = uniq
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.keys = keys
    }

    /// How the device appears in logs and ``ExitRequest``s: `name (path)`.
    public var label: String { "\(name) (\(path))" }

    /// `KEY_A`…`KEY_Z` (not contiguous in the kernel's numbering: the keyboard's rows).
    static let letterKeys: Set<UInt16> = [
        30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44,
    ]

    /// Whether it is a keyboard: it can send a letter key (`KEY_A`…`KEY_Z`).
    public var isKeyboard: Bool { !keys.isDisjoint(with: Self.letterKeys) }

    /// The physical device it is one interface of: ``phys`` without its last `/inputN` part, with the
    /// ids and ``uniq`` (a Bluetooth device's interfaces share the adapter's `phys` and its `uniq`).
    /// A USB keyboard's "System Control" or "Consumer Control" device (its Power, Sleep and media
    /// keys) shares this with the keyboard's letter keys. `nil` without a ``phys``.
    var physicalParent: String? {
        guard !phys.isEmpty else { return nil }
        var parent = Substring(phys)
        if let slash = phys.lastIndex(of: "/"), phys[phys.index(after: slash)...].hasPrefix("input") {
            parent = phys[..<slash]
        }
        return "\(parent)|\(uniq)|\(bus):\(vendor):\(product)"
    }

    /// Whether it is another interface of the same physical device as `keyboard` (and not a button of
    /// the computer itself: gpio-keys devices all share one `phys`, so only USB and Bluetooth count).
    func isCompanion(of keyboard: InputDeviceIdentity) -> Bool {
        guard path != keyboard.path, [Self.busUSB, Self.busBluetooth].contains(bus), let parent = physicalParent
        else { return false }
        return parent == keyboard.physicalParent
    }

    static let busUSB: UInt16 = 0x03
    static let busBluetooth: UInt16 = 0x05
}
