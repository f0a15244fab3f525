/// A frame file that could not be written.
public struct PNGFileViewError: Error, CustomStringConvertible {
    /// The frame file that was to be written.
    public let path: String
    /// Why it could not be written, for example "No space left on device".
    public let reason: String

    public var description: String { "frame \(path) not written: \(reason)" }
}
