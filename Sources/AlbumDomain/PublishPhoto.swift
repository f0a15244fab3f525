/// The interactor: the only code that changes ``AlbumState``.
///
/// Once ``run()`` starts, it shows the first photo as soon as the repository has one, then a
/// different photo every `interval`, chosen by a ``PhotoShuffle``. While a photo is on screen
/// the next one is prepared in the background, so a tick only swaps frames; when it fails,
/// another is prepared in the background at once. Photos that fail to prepare are retried once
/// later, then reported and left out; the slideshow goes on with the others.
///
/// Time and randomness are injected: production passes `ContinuousClock` and a ``SplitMix64``,
/// tests a test clock and a fixed seed.
public actor PublishPhoto<C: Clock> where C.Duration == Duration {
    /// The album state: current value first, equal values skipped.
    public nonisolated let state = StateFlow(AlbumState.initial)

    private let repository: any PhotoRepository
    private let preparer: any FramePreparing
    private let clock: C
    private let interval: Duration
    private let presentationLimit: Int?
    private let events: @Sendable (AlbumEvent) -> Void
    private let memory: (any ShuffleMemory)?
    private let actions: AsyncStream<AlbumAction>
    private let actionSink: AsyncStream<AlbumAction>.Continuation

    private var random: any RandomNumberGenerator & Sendable
    private var shuffle = PhotoShuffle()
    private var listState = PhotoListState.loading
    private var skipped: Set<Photo> = []
    /// Photos that failed to prepare once and wait out of the rotation for their second try.
    private var retryLater: Set<Photo> = []
    /// Photos that failed to prepare once (retried or waiting to be).
    private var failedOnce: Set<Photo> = []
    private var reportedEmptiness: AlbumState.Content?
    private var prefetched: Prefetch?
    private var timer: Task<Void, Never>?
    private var presentations = 0

    private struct Prefetch {
        let photo: Photo
        let task: Task<Result<Frame, any Error>, Never>
    }

    /// Creates the interactor.
    /// - Parameters:
    ///   - repository: Where the photo list comes from.
    ///   - preparer: Decodes and scales a photo for the screen.
    ///   - clock: The clock the interval is measured on.
    ///   - interval: How long each photo stays.
    ///   - random: The random source for the shuffle.
    ///   - presentationLimit: Stop after this many presentations (the first photo and each tick
    ///     that shows one); `nil` runs until cancelled.
    ///   - events: Receives what happened, for the log.
    ///   - memory: Where the shuffle round is kept across restarts; `nil` starts a fresh round.
    public init(
        repository: any PhotoRepository,
        preparer: any FramePreparing,
        clock: C,
        interval: Duration,
        random: some RandomNumberGenerator & Sendable = SplitMix64(),
        presentationLimit: Int? = nil,
        events: @escaping @Sendable (AlbumEvent) -> Void = { _ in },
        memory: (any ShuffleMemory)? = nil
    ) {
        precondition(interval > .zero, "the interval must be positive")
        self.repository = repository
        self.preparer = preparer
        self.clock = clock
        self.interval = interval
        self.random = random
        self.presentationLimit = presentationLimit
        self.events = events
        self.memory = memory
        (actions, actionSink) = AsyncStream.makeStream(of: AlbumAction.self)
    }

    /// Sends an action from outside (for example, a display power request).
    public nonisolated func send(_ action: AlbumAction) {
        actionSink.yield(action)
    }

    /// Runs the slideshow until cancelled or until the presentation limit is reached, then
    /// finishes ``state``.
    public func run() async {
        emit(.loading)
        if let snapshot = memory?.load() { shuffle.restore(snapshot) }
        let repository = self.repository
        let sink = actionSink
        let listFeed = Task {
            for await list in repository.photoListStates() {
                sink.yield(.photoListChanged(list))
            }
        }
        for await action in actions {
            await handle(action)
            if let limit = presentationLimit, presentations >= limit { break }
            if Task.isCancelled { break }
        }
        listFeed.cancel()
        timer?.cancel()
        prefetched?.task.cancel()
        state.finish()
    }

    // MARK: Handling actions

    private func handle(_ action: AlbumAction) async {
        switch action {
        case .photoListChanged(let list):
            await photoListChanged(list)
        case .intervalElapsed:
            events(.intervalElapsed)
            retryFailedPhotos()
            await showNextPhoto()
        case .nextPhotoFailed(let photo, let reason):
            guard let prefetched, prefetched.photo == photo else { return }
            self.prefetched = nil
            noteFailure(of: photo, reason: reason)
            prefetchNextPhoto()
        case .displayPowerRequested(let power):
            var newState = state.value
            newState.displayPower = power
            state.emit(newState)
        }
    }

    private func photoListChanged(_ list: PhotoListState) async {
        listState = list
        switch list {
        case .loading:
            if !isShowingPhoto { emit(.loading) }
        case .failed(let reason):
            events(.photoListFailed(reason: reason))
            replaceRotation(with: [])
            if !isShowingPhoto { showEmptiness() }
        case .loaded(let photos):
            // A photo that leaves the list and comes back (the folder repository takes a replaced
            // file out for one publication) gets a fresh chance.
            let listed = Set(photos)
            skipped.formIntersection(listed)
            failedOnce.formIntersection(listed)
            retryLater.formIntersection(listed)
            replaceRotation(with: photos.filter { !skipped.contains($0) && !retryLater.contains($0) })
            if !isShowingPhoto { await showNextPhoto() }
        }
    }

    private func replaceRotation(with photos: [Photo]) {
        shuffle.replacePhotos(with: photos, using: &random)
        if let prefetched, !shuffle.photos.contains(prefetched.photo) {
            prefetched.task.cancel()
            self.prefetched = nil
        }
    }

    // MARK: Showing photos

    private var isShowingPhoto: Bool {
        if case .showing = state.value.content { return true }
        return false
    }

    private var shownPhoto: ShownPhoto? {
        if case .showing(let shown) = state.value.content { return shown }
        return nil
    }

    private func showNextPhoto() async {
        while true {
            guard let (photo, result) = await nextPreparedPhoto() else {
                // Nothing left: the photos waiting for their second try get it now.
                guard !retryLater.isEmpty else { break }
                retryFailedPhotos()
                continue
            }
            switch result {
            case .success(let frame):
                if shownPhoto?.photo != photo {
                    emit(.showing(ShownPhoto(photo: photo, frame: frame)))
                    events(.photoShown(photo))
                }
                // Saved before the next photo is picked for prefetching: the round as it is on screen.
                memory?.save(shuffle.snapshot)
                presentations += 1
                startTimerIfNeeded()
                prefetchNextPhoto()
                return
            case .failure(let error):
                noteFailure(of: photo, reason: String(describing: error))
            }
        }
        showEmptiness()
    }

    /// Takes a photo that failed to prepare out of the rotation: until its second try the first
    /// time, for good the second time.
    private func noteFailure(of photo: Photo, reason: String) {
        shuffle.remove(photo)
        if failedOnce.insert(photo).inserted {
            events(.photoRetryLater(photo, reason: reason))
            retryLater.insert(photo)
        } else {
            events(.photoSkipped(photo, reason: reason))
            skipped.insert(photo)
        }
    }

    /// Puts the photos that failed once back into the rotation, for their second and last try.
    private func retryFailedPhotos() {
        guard !retryLater.isEmpty else { return }
        retryLater = []
        guard case .loaded(let photos) = listState else { return }
        replaceRotation(with: photos.filter { !skipped.contains($0) })
    }

    /// The next photo and its frame: the prefetched one when it is still wanted, else a fresh pick.
    private func nextPreparedPhoto() async -> (Photo, Result<Frame, any Error>)? {
        if let prefetched {
            self.prefetched = nil
            return (prefetched.photo, await prefetched.task.value)
        }
        guard let photo = shuffle.next(using: &random) else { return nil }
        return (photo, await prepare(photo))
    }

    private func prefetchNextPhoto() {
        guard let photo = shuffle.next(using: &random) else { return }
        if let shown = shownPhoto, shown.photo == photo {
            let frame = shown.frame
            prefetched = Prefetch(photo: photo, task: Task { .success(frame) })
            return
        }
        let preparer = self.preparer
        let sink = actionSink
        prefetched = Prefetch(
            photo: photo,
            task: Task {
                do {
                    return .success(try await preparer.prepareFrame(for: photo))
                } catch {
                    // Reported at once, so another photo is prepared before the tick. A cancelled
                    // preparation is not a failure of the photo.
                    if !Task.isCancelled { sink.yield(.nextPhotoFailed(photo, reason: String(describing: error))) }
                    return .failure(error)
                }
            })
    }

    private func prepare(_ photo: Photo) async -> Result<Frame, any Error> {
        do { return .success(try await preparer.prepareFrame(for: photo)) } catch { return .failure(error) }
    }

    private func startTimerIfNeeded() {
        guard timer == nil else { return }
        let clock = self.clock
        let interval = self.interval
        let sink = actionSink
        // The ticks count from the first presentation, not from whenever the timer task gets to
        // run: a late start must not shift every tick.
        let origin = clock.now
        timer = Task {
            var deadline = origin
            while !Task.isCancelled {
                deadline = deadline.advanced(by: interval)
                do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                sink.yield(.intervalElapsed)
            }
        }
    }

    /// Shows why there is nothing to show, and logs it once.
    private func showEmptiness() {
        let content: AlbumState.Content
        let event: AlbumEvent?
        switch listState {
        case .loading:
            content = .loading
            event = nil
        case .failed(let reason):
            content = .failed(reason: reason)
            event = nil
        case .loaded:
            if skipped.isEmpty {
                content = .noPhotos(.emptyAlbum)
                event = .albumEmpty
            } else {
                content = .noPhotos(.noneReadable(skipped: skipped.count))
                event = .noReadablePhotos(skipped: skipped.count)
            }
        }
        if let event, reportedEmptiness != content { events(event) }
        reportedEmptiness = content
        emit(content)
    }

    private func emit(_ content: AlbumState.Content) {
        var newState = state.value
        newState.content = content
        state.emit(newState)
    }
}
