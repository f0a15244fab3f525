/// One file the slideshow skips, and why.
public struct DoctorSkippedFile: Codable, Sendable, Equatable {
    /// The file.
    public var path: String
    /// Why it is not shown.
    public var reason: String

    /// Creates an entry.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
