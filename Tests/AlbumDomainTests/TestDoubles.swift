import AlbumDomain
import Synchronization

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
}

func photos(_ names: String...) -> [Photo] { names.map(Photo.init(id:)) }

extension AlbumState {
    /// The photo on screen, if any.
    var shownPhotoID: String? {
        if case .showing(let shown) = content { return shown.photo.id }
        return nil
    }
}
