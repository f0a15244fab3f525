import AlbumDomain
import FolderRepository
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Records what a repository publishes and lets a test wait, with a timeout, for the next state
/// that matches. States are consumed in order: each wait starts after the previous match.
actor ListRecorder {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable (PhotoListState) -> Bool
        let continuation: CheckedContinuation<PhotoListState?, Never>
    }

    private var states: [PhotoListState] = []
    private var cursor = 0
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0
    private var consumer: Task<Void, Never>?
    /// The photo folder, to turn photo ids into names relative to it.
    nonisolated let folder: String

    init(repository: FolderPhotoRepository) {
        folder = repository.folder
        let stream = repository.photoListStates()
        Task { await self.start(stream) }
    }

    private func start(_ stream: AsyncStream<PhotoListState>) {
        consumer = Task { [weak self] in
            for await state in stream {
                await self?.receive(state)
            }
        }
    }

    /// Stops consuming: the repository's watcher stops.
    func stop() {
        consumer?.cancel()
        consumer = nil
    }

    private func receive(_ state: PhotoListState) {
        states.append(state)
        for waiter in waiters where waiter.predicate(state) {
            waiters.removeAll { $0.id == waiter.id }
            cursor = states.count
            waiter.continuation.resume(returning: state)
            return
        }
    }

    /// Every state received so far.
    var all: [PhotoListState] { states }

    /// The next state (after the previous match) for which `predicate` holds, or `nil` after
    /// `timeout`. The default is generous: Swift Testing starts every test at once on a cooperative
    /// pool as wide as the machine (two threads on a 2-core CI machine), and the CPU-bound codec
    /// tests held both threads for about 50 s in one loaded run, so this recorder got no thread
    /// to receive a list that was long published. Under qemu-user it is longer (``patient(_:)``).
    func next(
        timeout: Duration = patient(.seconds(90)), where predicate: @escaping @Sendable (PhotoListState) -> Bool
    ) async -> PhotoListState? {
        while cursor < states.count {
            let state = states[cursor]
            cursor += 1
            if predicate(state) { return state }
        }
        let id = nextWaiterID
        nextWaiterID += 1
        return await withCheckedContinuation { continuation in
            waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
            Task {
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
        }
    }

    /// The next `.loaded` list whose names (relative to the folder) satisfy `predicate`.
    func nextList(
        timeout: Duration = patient(.seconds(90)), where predicate: @escaping @Sendable (Set<String>) -> Bool
    ) async -> Set<String>? {
        let folder = self.folder
        let state = await next(timeout: timeout) { state in
            guard let names = names(of: state, in: folder) else { return false }
            return predicate(names)
        }
        return state.flatMap { names(of: $0, in: folder) }
    }

    private func expire(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        cursor = states.count
        waiter.continuation.resume(returning: nil)
    }
}

/// The photo names of a `.loaded` state, relative to `folder`; `nil` for other states.
func names(of state: PhotoListState, in folder: String) -> Set<String>? {
    guard case .loaded(let photos) = state else { return nil }
    return Set(photos.map { String(decoding: $0.id.bytes.dropFirst(folder.utf8.count + 1), as: UTF8.self) })
}

/// Whether a state is `.failed`.
func isFailed(_ state: PhotoListState) -> Bool {
    if case .failed = state { return true }
    return false
}

/// The inodes this process watches with inotify, from `/proc/self/fdinfo` (`inotify wd:… ino:…`).
func watchedInodes() -> Set<UInt64> {
    var inodes: Set<UInt64> = []
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo") else { return [] }
    for descriptor in descriptors {
        guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + descriptor, encoding: .utf8) else {
            continue
        }
        for line in info.split(separator: "\n") where line.hasPrefix("inotify ") {
            for field in line.split(separator: " ") where field.hasPrefix("ino:") {
                if let inode = UInt64(field.dropFirst(4), radix: 16) { inodes.insert(inode) }
            }
        }
    }
    return inodes
}

/// The inode of `path`.
func inode(of path: String) -> UInt64 {
    var buffer = stat()
    return stat(path, &buffer) == 0 ? UInt64(buffer.st_ino) : 0
}

/// Timing for tests: a short settle time, and files left open are never taken by time alone.
let testTiming = FolderWatchTiming(
    settleTime: .milliseconds(50), quietTimeForOpenFiles: .seconds(600), missingFolderRetry: .milliseconds(200))
