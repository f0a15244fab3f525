/// Where photos come from, hidden behind their loading state.
public protocol PhotoRepository: Sendable {
    /// The photo list as it changes: the current state first, then every change.
    func photoListStates() -> AsyncStream<PhotoListState>
}
