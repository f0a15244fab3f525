import AlbumDomain
import Synchronization
import Clocks

/// A repository whose photo list the test sets by hand.
final class ManualRepository: PhotoRepository {
    private let states = Mutex<[AsyncStream<PhotoListState>.Continuation]>([])
    private let current: Mutex<PhotoListState>

    init(_ initial: PhotoListState = .loading) {
        current = Mutex(initial)
    }

    func photoListStates() -> AsyncStream<PhotoListState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoListState.self)
        continuation.yield(current.withLock { $0 })
        states.withLock { $0.append(continuation) }
        return stream
    }

    func publish(_ state: PhotoListState) {
        current.withLock { $0 = state }
        for continuation in states.withLock({ $0 }) { continuation.yield(state) }
    }
}

/// Prepares a 1x1 frame per photo; photos named in `broken` fail. Counts preparations.
final class FakePreparer: FramePreparing {
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    let broken: Set<String>
    private let prepared = Mutex<[String]>([])

    init(broken: Set<String> = []) {
        self.broken = broken
    }

    var preparedPhotos: [String] { prepared.withLock { $0 } }

    func prepareFrame(for photo: Photo) async throws -> Frame {
        prepared.withLock { $0.append(photo.id) }
        if broken.contains(photo.id) { throw Broken(description: "\(photo.id) is broken") }
        return Frame(size: FrameSize(width: 1, height: 1), pixels: [UInt32(truncatingIfNeeded: photo.id.hashValue)])
    }
}

/// Collects album events.
final class EventLog: Sendable {
    private let storage = Mutex<[AlbumEvent]>([])
    var events: [AlbumEvent] { storage.withLock { $0 } }
    func record(_ event: AlbumEvent) { storage.withLock { $0.append(event) } }

    /// Whether `condition` comes to hold for the events, waiting by yielding to the other tasks
    /// (never by sleeping for real) a bounded number of times.
    func eventually(_ condition: ([AlbumEvent]) -> Bool) async -> Bool {
        for _ in 0..<10_000 {
            if condition(events) { return true }
            await Task.detached(priority: .background) { await Task.yield() }.value
        }
        return condition(events)
    }
}

func photos(_ names: String...) -> [Photo] { names.map(Photo.init(id:)) }

extension AlbumState {
    /// The photo on screen, if any.
    var shownPhotoID: String? {
        if case .showing(let shown) = content { return shown.photo.id }
        return nil
    }
}

extension TestClock<Duration> {
    /// Advances the clock once something sleeps on it (the interactor's timer). On a busy
    /// machine the timer task may reach its `sleep` only after the test moved on; advancing
    /// before that would move time past a tick nobody waits for yet. Waits by yielding, never
    /// by sleeping for real, and gives up after a bounded number of yields.
    func advanceWhenTimerSleeps(by duration: Duration) async {
        for _ in 0..<1_000 {
            // `checkSuspension` throws when a sleep is pending.
            if (try? await checkSuspension()) == nil { break }
            await Task.detached(priority: .background) { await Task.yield() }.value
        }
        await advance(by: duration)
    }
}
