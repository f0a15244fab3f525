import AlbumDomain

/// A repository that can be read afresh: ``rescan()`` ends the current reading (its watcher
/// stops) and starts a new one from scratch, as daemons do on SIGHUP. The photo on screen stays
/// while the new reading loads.
final class RescanningRepository: PhotoRepository {
    private let makeRepository: @Sendable () -> any PhotoRepository
    private let rescans: AsyncStream<Void>
    private let rescanSink: AsyncStream<Void>.Continuation

    /// Creates a repository whose readings come from `makeRepository`.
    init(_ makeRepository: @escaping @Sendable () -> any PhotoRepository) {
        self.makeRepository = makeRepository
        (rescans, rescanSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a fresh reading.
    func rescan() {
        rescanSink.yield()
    }

    /// The list states of the current reading; a rescan continues the same stream with the new one.
    /// Meant for one consumer (the runner).
    func photoListStates() -> AsyncStream<PhotoListState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoListState.self)
        let makeRepository = self.makeRepository
        let rescans = self.rescans
        let feeding = Task {
            var reading = Self.read(makeRepository(), into: continuation)
            for await _ in rescans {
                reading.cancel()
                reading = Self.read(makeRepository(), into: continuation)
            }
            reading.cancel()
        }
        continuation.onTermination = { _ in feeding.cancel() }
        return stream
    }

    private static func read(
        _ repository: any PhotoRepository, into continuation: AsyncStream<PhotoListState>.Continuation
    ) -> Task<Void, Never> {
        Task {
            for await state in repository.photoListStates() {
                continuation.yield(state)
            }
        }
    }
}
