/// Why the caption font cannot be used.
public struct CaptionFontError: Error, CustomStringConvertible {
    /// FreeType's reason, with the path.
    public let reason: String
    public var description: String { reason }
}
