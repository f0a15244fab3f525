/// One photo of the album, as the domain knows it: an opaque identity and a name to log.
///
/// Where the photo comes from (a file, a URL) is the repository's business; `id` is only ever
/// handed back to the adapters that understand it.
public struct Photo: Hashable, Sendable, CustomStringConvertible {
    /// Stable identity of the photo (for the folder repository: its path, as bytes).
    public let id: PhotoID

    /// Creates a photo with the given identity.
    public init(id: PhotoID) {
        self.id = id
    }

    /// The identity, escaped for a log line (see ``PhotoID/description``).
    public var description: String { id.description }
}
