import AlbumDomain

/// The list states of several sources combined into one, as the domain sees one repository.
///
/// - The photos are those of every source that has loaded, in source order, each once.
/// - `.loading` while nothing has loaded and something is still loading (or loaded empty while
///   another source still loads), so the frame does not say "no photos" too early.
/// - `.failed` only when every source failed (the reasons joined); one bad source never hides
///   the others' photos.
/// - With ``StickPhotos/replace``, while a stick source is present, folder sources are left out.
public struct PhotoListMerge: Sendable, Equatable {
    /// One source's latest state.
    public struct Source: Sendable, Equatable {
        /// The folder it reads.
        public var folder: String
        /// A USB stick (from the mount watcher), not a `--photos` folder.
        public var isStick: Bool
        /// Its latest state.
        public var state: PhotoListState
    }

    /// The sources, in order: `--photos` folders first, then sticks by mount point.
    public var sources: [Source] = []
    /// The stick policy.
    public var stickPhotos: StickPhotos

    /// Creates an empty merge.
    public init(stickPhotos: StickPhotos) {
        self.stickPhotos = stickPhotos
    }

    /// The combined state.
    public var combined: PhotoListState {
        let sticksPresent = sources.contains { $0.isStick }
        let counted = sources.filter { !(stickPhotos == .replace && sticksPresent && !$0.isStick) }
        if counted.isEmpty { return .loaded([]) }
        // One source (the usual frame): its list as it is, each photo once already (a folder lists
        // a path once), so the combined list shares its storage instead of copying it.
        if counted.count == 1, case .loaded(let list) = counted[0].state { return .loaded(list) }
        var seen: Set<Photo> = []
        var photos: [Photo] = []
        var loading = false
        var failures: [String] = []
        for source in counted {
            switch source.state {
            case .loading: loading = true
            case .failed(let reason): failures.append(reason)
            case .loaded(let list):
                for photo in list where seen.insert(photo).inserted { photos.append(photo) }
            }
        }
        if !photos.isEmpty { return .loaded(photos) }
        if loading { return .loading }
        if failures.count == counted.count { return .failed(reason: failures.joined(separator: "; ")) }
        return .loaded([])
    }

    /// Records `state` for `folder`.
    public mutating func update(folder: String, state: PhotoListState) {
        guard let index = sources.firstIndex(where: { $0.folder == folder }) else { return }
        sources[index].state = state
    }

    /// Makes the stick sources exactly `folders` (new ones start `.loading`); returns the
    /// folders added and removed.
    public mutating func setSticks(_ folders: [String]) -> (added: [String], removed: [String]) {
        let current = sources.filter(\.isStick).map(\.folder)
        let removed = current.filter { !folders.contains($0) }
        let added = folders.filter { !current.contains($0) }
        sources.removeAll { $0.isStick && removed.contains($0.folder) }
        sources += added.map { Source(folder: $0, isStick: true, state: .loading) }
        return (added, removed)
    }
}
