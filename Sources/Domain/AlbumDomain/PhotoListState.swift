/// The photo list together with its loading state, as a repository publishes it.
public enum PhotoListState: Equatable, Sendable {
    /// The list is being read (a folder being scanned).
    case loading
    /// The list was read; it may be empty.
    case loaded([Photo])
    /// The list cannot be read (a folder that does not exist or cannot be opened), and why.
    case failed(reason: String)
}
