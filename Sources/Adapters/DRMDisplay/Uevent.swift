/// One kernel uevent: `ACTION`, `DEVPATH`, `SUBSYSTEM`, `DEVNAME`, `HOTPLUG`... as sent on
/// the `NETLINK_KOBJECT_UEVENT` socket (`"action@devpath\0KEY=VALUE\0..."`).
public struct Uevent: Equatable, Sendable {
    /// The `KEY=VALUE` pairs.
    public var properties: [String: String]

    /// Parses one datagram; `nil` for messages that are not kernel uevents (e.g. udev's).
    public init?(datagram: [UInt8]) {
        let fields = datagram.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, header.contains("@"), !header.hasPrefix("libudev") else { return nil }
        var properties: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        self.properties = properties
    }

    /// Whether this is a DRM change event for the card named like `card0`.
    public func isDisplayChange(card: String) -> Bool {
        properties["SUBSYSTEM"] == "drm" && properties["ACTION"] == "change"
            && (properties["DEVNAME"] == "dri/\(card)" || properties["DEVPATH"]?.hasSuffix("/\(card)") == true)
    }
}
