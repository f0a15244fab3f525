/// A KMS connector's object id (`uint32_t connector_id` of `drmModeConnector`): a display output
/// such as `HDMI-A-1`.
struct ConnectorID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
    var description: String { "connector \(rawValue)" }
}

/// A CRTC's object id (`uint32_t crtc_id`): the scan-out engine that drives a connector.
struct CRTCID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
    var description: String { "CRTC \(rawValue)" }
}

/// An encoder's object id (`uint32_t encoder_id`); the kernel's 0 means "none" and is never
/// wrapped.
struct EncoderID: Hashable, Sendable {
    let rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A framebuffer's object id (`uint32_t fb_id`, from `drmModeAddFB2`).
struct FramebufferID: Hashable, Sendable {
    let rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A KMS property's id (`uint32_t prop_id`, for example the connector's "DPMS").
struct PropertyID: Hashable, Sendable {
    let rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
}
