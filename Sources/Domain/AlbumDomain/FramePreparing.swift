public protocol FramePreparing: Sendable {
    /// Decodes `photo` and scales it to `size`, or throws why it cannot.
    func prepareFrame(for photo: Photo, size: FrameSize) throws -> Frame
}
