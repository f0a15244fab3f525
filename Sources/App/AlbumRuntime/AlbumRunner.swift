import AlbumDomain
import Dispatch

/// The thin runner at the edge of the domain: feeds actions to the ``PublishPhoto`` reducer one
/// at a time, publishes the album's state, and performs the effects the reducer returns.
///
/// - Frames are prepared on a serial queue of their own (decoding is file I/O and seconds of
///   CPU; it never runs on Swift's cooperative pool), one at a time.
/// - The shuffle round is saved on another serial queue (it `fsync`s).
/// - Ticks sleep on the injected clock until their deadline; the reducer never reads a clock.
///
/// Actions come from anywhere through ``send(_:)``: the repository's list (fed by ``run(…)``),
/// the display, the input layer, signals.
public final class AlbumRunner<C: Clock>: Sendable where C.Duration == Duration {
    /// The album state: current value first, equal values skipped.
    public let state = StateFlow(AlbumState.initial)

    private let reducer: PublishPhoto
    private let clock: C
    private let origin: C.Instant
    private let preparer: any FramePreparing
    private let memory: (any ShuffleMemory)?
    private let events: @Sendable (AlbumEvent) -> Void
    private let actions: AsyncStream<AlbumAction>
    private let actionSink: AsyncStream<AlbumAction>.Continuation
    private let preparation = DispatchQueue(label: "babyalbum.prepare-frame", qos: .utility)
    private let storage = DispatchQueue(label: "babyalbum.save-round", qos: .utility)

    /// Creates a runner.
    /// - Parameters:
    ///   - reducer: The interactor.
    ///   - clock: The clock ticks are measured on.
    ///   - preparer: Decodes and scales photos (called on the runner's own queue).
    ///   - memory: Where the shuffle round is kept across restarts; `nil` keeps nothing.
    ///   - events: Receives what happened, for the log.
    public init(
        reducer: PublishPhoto, clock: C, preparer: any FramePreparing, memory: (any ShuffleMemory)? = nil,
        events: @escaping @Sendable (AlbumEvent) -> Void = { _ in }
    ) {
        self.reducer = reducer
        self.clock = clock
        self.origin = clock.now
        self.preparer = preparer
        self.memory = memory
        self.events = events
        (actions, actionSink) = AsyncStream.makeStream(of: AlbumAction.self)
    }

    /// Sends an action to the reducer (from any thread).
    public func send(_ action: AlbumAction) {
        actionSink.yield(action)
    }

    /// Now, on the runner's clock, as the domain counts time.
    public var now: AlbumTime {
        AlbumTime(sinceStart: origin.duration(to: clock.now))
    }

    /// Runs the album until the reducer ends it (or the calling task is cancelled), waits for
    /// the round's saves already queued, then finishes ``state``. `random` fixes the shuffle order.
    public func run(repository: any PhotoRepository, frameSize: FrameSize, random: SplitMix64) async {
        var album = Album(random: random)
        var ticks = TickTask()
        var noticeEnd = TickTask()
        let savedRound = await loadSavedRound()
        send(.started(frameSize: frameSize, savedRound: savedRound))
        let listFeed = Task { [actionSink] in
            for await list in repository.photoListStates() { actionSink.yield(.photoListChanged(list)) }
        }
        defer {
            listFeed.cancel()
            ticks.cancel()
            noticeEnd.cancel()
            state.finish()
        }
        for await action in actions {
            let effects = reducer.reduce(&album, action)
            state.emit(album.state)
            if perform(effects, ticks: &ticks, noticeEnd: &noticeEnd) == .ended || Task.isCancelled { break }
        }
        await finishSaving()
    }

    /// Waits for the saves already queued, so the process never exits in the middle of one
    /// (which left the state file's temporary copy behind after a `--count` exit).
    private func finishSaving() async {
        guard memory != nil else { return }
        await withCheckedContinuation { continuation in
            storage.async { continuation.resume() }
        }
    }

    private enum Outcome { case goOn, ended }

    private func perform(_ effects: [AlbumEffect], ticks: inout TickTask, noticeEnd: inout TickTask) -> Outcome {
        var outcome = Outcome.goOn
        for effect in effects {
            switch effect {
            case .prepareFrame(let photo, let size): prepare(photo, size: size)
            case .saveRound(let snapshot): save(snapshot)
            case .scheduleTick(let deadline): ticks.schedule { [self] in await tick(at: deadline) }
            case .cancelTick: ticks.cancel()
            case .scheduleNoticeEnd(let deadline):
                noticeEnd.schedule { [self] in
                    guard await sleep(until: deadline) else { return }
                    send(.noticeTimeElapsed(now: now))
                }
            case .report(let event): events(event)
            case .end: outcome = .ended
            }
        }
        return outcome
    }

    private func prepare(_ photo: Photo, size: FrameSize) {
        preparation.async { [self] in
            do {
                let frame = try preparer.prepareFrame(for: photo, size: size)
                send(.framePrepared(photo, frame, now: now))
            } catch let failure as any PreparationFailure where failure.isLasting {
                send(.framePreparationRefused(photo, reason: String(describing: failure), now: now))
            } catch {
                send(.framePreparationFailed(photo, reason: String(describing: error), now: now))
            }
        }
    }

    private func save(_ snapshot: ShuffleSnapshot) {
        guard let memory else { return }
        storage.async { memory.save(snapshot) }
    }

    private func tick(at deadline: AlbumTime) async {
        guard await sleep(until: deadline) else { return }
        send(.intervalElapsed(now: now))
    }

    /// Sleeps on the runner's clock until `deadline`; `false` when cancelled (replaced or no
    /// longer wanted).
    private func sleep(until deadline: AlbumTime) async -> Bool {
        do {
            try await clock.sleep(until: origin.advanced(by: deadline.sinceStart), tolerance: nil)
            return true
        } catch {
            return false
        }
    }

    private func loadSavedRound() async -> ShuffleSnapshot? {
        guard let memory else { return nil }
        return await withCheckedContinuation { continuation in
            storage.async { continuation.resume(returning: memory.load()) }
        }
    }
}

/// The one pending tick: scheduling another replaces it.
private struct TickTask {
    private var task: Task<Void, Never>?

    mutating func schedule(_ body: @escaping @Sendable () async -> Void) {
        task?.cancel()
        task = Task(operation: body)
    }

    mutating func cancel() {
        task?.cancel()
        task = nil
    }
}
