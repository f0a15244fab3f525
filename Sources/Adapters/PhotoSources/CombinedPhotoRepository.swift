import AlbumDomain
import LinuxInterfaces
import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One ``PhotoRepository`` over several photo folders and the USB sticks mounted below a folder
/// (`/media/babyalbum`): each folder has its own repository (made by `makeRepository`, a
/// ``FolderPhotoRepository`` in the frame), and ``PhotoListMerge`` combines their lists. A stick
/// mounted while the frame runs gets a repository at once; a stick pulled loses its photos.
public final class CombinedPhotoRepository: PhotoRepository {
    private let folders: [String]
    private let stickRoot: String?
    private let stickPhotos: StickPhotos
    private let makeRepository: @Sendable (String) -> any PhotoRepository
    private let logger: Logger

    /// Creates the repository: `folders` always, and the mounts below `stickRoot` (if any).
    public init(
        folders: [String], stickRoot: String?, stickPhotos: StickPhotos, logger: Logger,
        makeRepository: @escaping @Sendable (String) -> any PhotoRepository
    ) {
        self.folders = folders
        self.stickRoot = stickRoot
        self.stickPhotos = stickPhotos
        self.makeRepository = makeRepository
        self.logger = logger
    }

    /// Every call starts its own readings and mount watcher; they stop with the stream.
    public func photoListStates() -> AsyncStream<PhotoListState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoListState.self)
        let session = Session(
            merge: PhotoListMerge(stickPhotos: stickPhotos), continuation: continuation, make: makeRepository)
        session.start(folders: folders)
        var watcher: MountWatcher?
        if let stickRoot {
            do {
                watcher = try MountWatcher(root: stickRoot, logger: logger) { session.setSticks($0) }
            } catch {
                logger.warning("cannot follow USB sticks below \(stickRoot): \(error)")
            }
        }
        continuation.onTermination = { [watcher] _ in
            watcher?.stop()
            session.stopAll()
        }
        return stream
    }
}

/// One consumer's readings: the merge state, the reading tasks by folder, and the output.
private final class Session: Sendable {
    private struct State {
        var merge: PhotoListMerge
        var readings: [String: Task<Void, Never>] = [:]
        var last: PhotoListState?
        var stopped = false
    }

    private let state: Mutex<State>
    private let continuation: AsyncStream<PhotoListState>.Continuation
    private let make: @Sendable (String) -> any PhotoRepository

    init(
        merge: PhotoListMerge, continuation: AsyncStream<PhotoListState>.Continuation,
        make: @escaping @Sendable (String) -> any PhotoRepository
    ) {
        state = Mutex(State(merge: merge))
        self.continuation = continuation
        self.make = make
    }

    func start(folders: [String]) {
        state.withLock { state in
            state.merge.sources = folders.map { .init(folder: $0, isStick: false, state: .loading) }
        }
        publish()
        for folder in folders { startReading(folder) }
    }

    /// Makes the sticks exactly `folders` (on the mount watcher's thread): publishes the list
    /// without the pulled ones first, then stops their readings on a thread of their own. A
    /// pulled stick's folder watcher can be slow to stop (its thread may wait on I/O to a device
    /// that is gone), and that must delay neither the new list nor the next stick; stopping
    /// under the lock did both.
    func setSticks(_ folders: [String]) {
        let (added, stopped) = state.withLock { state in
            let change = state.merge.setSticks(folders)
            return (change.added, change.removed.compactMap { state.readings.removeValue(forKey: $0) })
        }
        publish()
        if !stopped.isEmpty { try? JoinableThread.detach { for reading in stopped { reading.cancel() } } }
        for folder in added { startReading(folder) }
    }

    func stopAll() {
        let readings = state.withLock { state in
            state.stopped = true
            defer { state.readings = [:] }
            return Array(state.readings.values)
        }
        for reading in readings { reading.cancel() }
    }

    private func startReading(_ folder: String) {
        let repository = make(folder)
        let task = Task { [weak self] in
            for await listState in repository.photoListStates() {
                guard let self, !Task.isCancelled else { return }
                self.state.withLock { $0.merge.update(folder: folder, state: listState) }
                self.publish()
            }
        }
        let keep = state.withLock { state -> Bool in
            guard !state.stopped, state.merge.sources.contains(where: { $0.folder == folder }) else { return false }
            state.readings[folder] = task
            return true
        }
        if !keep { task.cancel() }
    }

    /// Yields the combined state when it changed (under the lock, so states never overtake).
    private func publish() {
        state.withLock { state in
            let combined = state.merge.combined
            guard combined != state.last, !state.stopped else { return }
            state.last = combined
            continuation.yield(combined)
        }
    }
}
