import CDRM
import CDisplayShims
import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#endif

/// An open `/dev/dri/cardN` node: owns the file descriptor and answers KMS queries with plain
/// Swift values (every libdrm object is freed before returning).
final class DRMDevice {
    /// The device path.
    let path: String
    private var file: FileDescriptor
    /// The open file descriptor, or -1 once closed.
    var fd: Int32 { file.rawValue }

    /// The KMS object ids of the card (`drmModeGetResources`).
    struct Resources {
        var crtcs: [CRTCID]
        var connectors: [ConnectorID]
        var encoders: [EncoderID]

        /// Has display outputs (weston's `drm_device_is_kms`): render-only nodes have none.
        var isKMS: Bool { !crtcs.isEmpty && !connectors.isEmpty && !encoders.isEmpty }
    }

    /// One connector as last probed (`drmModeGetConnector`).
    struct Connector {
        var id: ConnectorID
        /// Like `HDMI-A-1` or `Virtual-1`.
        var name: String
        var isConnected: Bool
        /// The raw modes, in the driver's order.
        var modeInfos: [drmModeModeInfo]
        /// The encoder currently driving it (`nil` if none) and all that can.
        var encoder: EncoderID?
        var encoders: [EncoderID]

        var modes: [DisplayMode] { modeInfos.map(DisplayMode.init(info:)) }
    }

    /// Opens `path` read-write, close-on-exec, mapping errors to messages a person can act on.
    init(path: String) throws(DRMError) {
        do throws(SystemCallFailure) {
            file = try FileDescriptor(opening: path, .readWrite)
        } catch {
            switch error.code {
            case EACCES, EPERM: throw .permissionDenied(error)
            case ENOENT, ENODEV, ENXIO: throw .noDevice("\(path) does not exist", failure: error)
            default: throw DRMError(error)
            }
        }
        self.path = path
    }

    /// Runs a libdrm or libc call on this card (-1 with `errno`, or a negative error number,
    /// on failure), naming the card in the ``SystemCallFailure``.
    @discardableResult
    func call<I: FixedWidthInteger>(_ operation: String, _ body: () -> I) throws(SystemCallFailure) -> I {
        try valueOrErrno(operation, path: path, negativeIsFailure: true, body)
    }

    /// Becomes DRM master (needed to set modes), unless it already is.
    func becomeMaster() throws(DRMError) {
        if drmIsMaster(fd) == 0 && drmSetMaster(fd) != 0 { throw .masterHeld(path) }
    }

    /// Closes the descriptor (dropping DRM master). Safe to call more than once; the
    /// ``FileDescriptor`` closes it when the device ends otherwise.
    func close() {
        file.closeNow()
    }

    /// The kernel driver's name (`drmGetVersion`), e.g. `bochs-drm`, `vc4`, `v3d`.
    var driverName: String? {
        guard let version = drmGetVersion(fd) else { return nil }
        defer { drmFreeVersion(version) }
        guard let name = version.pointee.name else { return nil }
        return String(cString: name)
    }

    /// Whether the card supports dumb buffers (`DRM_CAP_DUMB_BUFFER`).
    var supportsDumbBuffers: Bool {
        var value: UInt64 = 0
        return drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    /// The card's KMS objects, or `nil` for a node without mode setting (render-only).
    func resources() -> Resources? {
        guard let res = drmModeGetResources(fd) else { return nil }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        return Resources(
            crtcs: UnsafeBufferPointer(start: r.crtcs, count: Int(r.count_crtcs)).map(CRTCID.init),
            connectors: UnsafeBufferPointer(start: r.connectors, count: Int(r.count_connectors)).map(ConnectorID.init),
            encoders: UnsafeBufferPointer(start: r.encoders, count: Int(r.count_encoders)).map(EncoderID.init))
    }

    /// Probes connector `id` (this asks the driver to re-detect the display).
    func connector(_ id: ConnectorID) -> Connector? {
        guard let pointer = drmModeGetConnector(fd, id.rawValue) else { return nil }
        defer { drmModeFreeConnector(pointer) }
        let c = pointer.pointee
        let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
        return Connector(
            id: ConnectorID(c.connector_id),
            name: "\(typeName)-\(c.connector_type_id)",
            isConnected: c.connection == DRM_MODE_CONNECTED,
            modeInfos: Array(UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes))),
            encoder: c.encoder_id == 0 ? nil : EncoderID(c.encoder_id),
            encoders: UnsafeBufferPointer(start: c.encoders, count: Int(c.count_encoders)).map(EncoderID.init))
    }

    /// A CRTC that can drive `connector`: the one it is on now, else the first its encoders allow.
    func crtc(for connector: Connector, in resources: Resources) -> CRTCID? {
        if let current = connector.encoder, let encoder = drmModeGetEncoder(fd, current.rawValue) {
            let crtc = encoder.pointee.crtc_id
            drmModeFreeEncoder(encoder)
            if crtc != 0 { return CRTCID(crtc) }
        }
        for id in connector.encoders {
            guard let encoder = drmModeGetEncoder(fd, id.rawValue) else { continue }
            let possible = encoder.pointee.possible_crtcs
            drmModeFreeEncoder(encoder)
            for (index, crtc) in resources.crtcs.enumerated() where index < 32 && possible & (1 << UInt32(index)) != 0 {
                return crtc
            }
        }
        return nil
    }

    /// The id of the connector property named `name` (e.g. `DPMS`), if it has one.
    func connectorProperty(_ connector: ConnectorID, named name: String) -> PropertyID? {
        withConnectorProperty(connector, named: name) { property, _ in PropertyID(property.pointee.prop_id) }
    }

    /// The name of the current value of the enum property `name` of `connector` (for example
    /// `panel orientation` → `Left Side Up`), or `nil` when the connector has no such property.
    func connectorEnumValue(_ connector: ConnectorID, named name: String) -> String? {
        withConnectorProperty(connector, named: name) { property, value in
            let enums = UnsafeBufferPointer(start: property.pointee.enums, count: Int(property.pointee.count_enums))
            return enums.first { $0.value == value }.map { cString($0.name) }
        }
    }

    /// Finds `connector`'s property named `name` and passes it, with its current value, to `body`
    /// (the libdrm objects are freed after).
    private func withConnectorProperty<T>(
        _ connector: ConnectorID, named name: String, _ body: (drmModePropertyPtr, UInt64) -> T?
    ) -> T? {
        guard let props = drmModeObjectGetProperties(fd, connector.rawValue, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else {
            return nil
        }
        defer { drmModeFreeObjectProperties(props) }
        for index in 0..<Int(props.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, props.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            if cString(property.pointee.name) == name { return body(property, props.pointee.prop_values[index]) }
        }
        return nil
    }
}

extension DisplayMode {
    /// The useful fields of a libdrm `drmModeModeInfo`.
    init(info: drmModeModeInfo) {
        self.init(
            width: Int(info.hdisplay), height: Int(info.vdisplay), refreshHz: Int(info.vrefresh),
            isPreferred: info.type & CDisplayShims_DRM_MODE_TYPE_PREFERRED != 0,
            isUserDefined: info.type & CDisplayShims_DRM_MODE_TYPE_USERDEF != 0,
            isInterlaced: info.flags & CDisplayShims_DRM_MODE_FLAG_INTERLACE != 0)
    }
}

/// A fixed-size C `char` array (as libdrm's names are) up to its first zero, as a string.
private func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self) }
}
