import CDRM

extension DRMDevice {
    /// The name of the current value of the enum property `name` of `connector` (for example
    /// `panel orientation` → `Left Side Up`), or `nil` when the connector has no such property.
    func connectorEnumValue(_ connector: UInt32, named name: String) -> String? {
        guard let props = drmModeObjectGetProperties(fd, connector, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for index in 0..<Int(props.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, props.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            guard cString(property.pointee.name) == name else { continue }
            let value = props.pointee.prop_values[index]
            for entry in 0..<Int(property.pointee.count_enums) where property.pointee.enums[entry].value == value {
                return cString(property.pointee.enums[entry].name)
            }
        }
        return nil
    }
}

private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self) }
}
