/// One reduction in progress: the album being changed and the effects so far.
struct Reduction {
    var album: Album
    let interval: Duration
    let presentationLimit: Int?
    let transition: PhotoTransition
    var effects: [AlbumEffect] = []

    mutating func apply(_ action: AlbumAction) {
        switch action {
        case .started(let frameSize, let savedRound):
            start(frameSize: frameSize, savedRound: savedRound)
        case .photoListChanged(let list):
            photoListChanged(list)
        case .intervalElapsed(let now):
            intervalElapsed(now: now)
        case .framePrepared(let photo, let frame, let now):
            framePrepared(photo, frame, now: now)
        case .framePreparationFailed(let photo, let reason, let now):
            preparationFailed(photo, reason: reason, now: now)
        case .framePreparationRefused(let photo, let reason, let now):
            preparationFailed(photo, reason: reason, now: now, lasting: true)
        case .displayPowerRequested(let power):
            album.state.displayPower = power
        case .quietHoursBegan(let display):
            quietHoursBegan(display)
        case .quietHoursEnded(let now):
            quietHoursEnded(now: now)
        case .clockFoundUnset(let now, let advice):
            clockFoundUnset(now: now, advice: advice)
        case .clockSet:
            clockSet()
        case .updateOutcomeFound(let outcome, let now):
            updateOutcomeFound(outcome, now: now)
        case .noticeTimeElapsed(let now):
            noticeTimeElapsed(now: now)
        case .frameSizeChanged(let size):
            frameSizeChanged(size)
        case .exitButtonHeld(let request):
            end(.exitButton(request))
        case .stopSignalReceived(let number):
            end(.signal(number))
        case .settingsChanged:
            end(.restartRequested)
        case .displayConnected:
            end(.displayConnected)
        }
    }

    // MARK: The list and the screen

    private mutating func start(frameSize: FrameSize, savedRound: ShuffleSnapshot?) {
        guard album.state.content == .nothingLoaded else { return }
        album.frameSize = frameSize
        if let savedRound { album.shuffle.restore(savedRound) }
        album.state.content = .loading
    }

    private mutating func photoListChanged(_ list: PhotoListState) {
        album.listState = list
        switch list {
        case .loading:
            if album.shown == nil { album.state.content = .loading }
        case .failed(let reason):
            effects.append(.report(.photoListFailed(reason: reason)))
            replaceRotation(with: [])
            if album.shown == nil { showEmptiness() }
        case .loaded(let photos):
            // A photo that leaves the list and comes back (the folder repository takes a replaced
            // file out for one publication) gets a fresh chance.
            album.failures.keepOnly(Set(photos))
            let failures = album.failures
            replaceRotation(
                with: photos.filter { !failures.skipped.contains($0) && !failures.waitingForRetry.contains($0) })
            prepareNextFrame(now: nil)
        }
    }

    private mutating func replaceRotation(with photos: [Photo]) {
        album.shuffle.replacePhotos(with: photos, using: &album.random)
        if let ready = album.ready, !album.shuffle.contains(ready.photo) { album.ready = nil }
    }

    private mutating func frameSizeChanged(_ size: FrameSize) {
        guard album.frameSize != size else { return }
        album.frameSize = size
        if let ready = album.ready {
            album.queued = ready.photo
            album.ready = nil
        }
        prepareNextFrame(now: nil)
    }

    // MARK: Ticks and frames

    private mutating func intervalElapsed(now: AlbumTime) {
        // A tick that was replaced or cancelled after it fired is not the tick now due.
        guard let due = album.nextTick, now >= due else { return }
        album.nextTick = nil
        effects.append(.report(.intervalElapsed))
        if let summary = album.failures.takeSummary() { effects.append(.report(summary)) }
        retryFailedPhotos()
        presentReadyFrameOrWaitForIt(now: now)
    }

    /// Shows the prepared next frame now, or, when it is not ready yet, marks the tick as due
    /// (the frame is shown the moment it is prepared) and makes sure it is being prepared.
    mutating func presentReadyFrameOrWaitForIt(now: AlbumTime) {
        if let ready = album.ready {
            album.ready = nil
            present(ready, now: now)
        } else {
            album.tickIsDue = true
            prepareNextFrame(now: now)
        }
    }

    private mutating func framePrepared(_ photo: Photo, _ frame: Frame, now: AlbumTime) {
        guard album.preparing == photo else { return }
        album.preparing = nil
        guard album.shuffle.contains(photo) || album.shown?.photo == photo else {
            return prepareNextFrame(now: now)  // it left the list while it was being prepared
        }
        guard let size = album.frameSize, frame.size == size else {
            // Made for a screen that has changed since: make it again.
            album.queued = photo
            return prepareNextFrame(now: now)
        }
        let prepared = ShownPhoto(photo: photo, frame: frame)
        if let shown = album.shown, shown.photo == photo, shown.frame.size != size {
            album.state.content = .showing(prepared)  // the photo on screen, redone for a new size
            album.state.fade = nil
            prepareNextFrame(now: now)
        } else if album.state.quiet == nil, album.shown == nil || album.tickIsDue {
            present(prepared, now: now)
        } else {
            album.ready = prepared
        }
    }

    private mutating func preparationFailed(_ photo: Photo, reason: String, now: AlbumTime, lasting: Bool = false) {
        guard album.preparing == photo else { return }
        album.preparing = nil
        album.shuffle.remove(photo)
        if let event = album.failures.record(photo, reason: reason, lasting: lasting) { effects.append(.report(event)) }
        prepareNextFrame(now: now)
    }

    /// Asks for the next frame when none is being made and none is ready: the photo on screen
    /// again when the screen changed size, else a queued photo, else the shuffle's next. When
    /// there is none, the photos waiting for their second try get it; when there is still
    /// none, the screen says why it is empty (unless a photo shows and no tick is due).
    /// `now` is set when this runs in answer to something timed, so a due tick can be served.
    /// Nothing is asked for during quiet hours.
    mutating func prepareNextFrame(now: AlbumTime?) {
        guard album.state.quiet == nil, album.preparing == nil, album.ready == nil, let size = album.frameSize else {
            return
        }
        if let shown = album.shown, shown.frame.size != size { return askForFrame(shown.photo, size: size) }
        if let queued = album.queued, album.shuffle.contains(queued) {
            album.queued = nil
            return askForFrame(queued, size: size)
        }
        album.queued = nil
        guard let photo = nextPhoto() else {
            if album.shown == nil || album.tickIsDue { showEmptiness() }
            return
        }
        if let shown = album.shown, shown.photo == photo {
            // The photo on screen comes round again (an album of one): no need to decode it.
            guard album.tickIsDue, let now else {
                album.ready = shown
                return
            }
            return present(shown, now: now)
        }
        askForFrame(photo, size: size)
    }

    private mutating func nextPhoto() -> Photo? {
        if let photo = album.shuffle.next(using: &album.random) { return photo }
        guard !album.failures.waitingForRetry.isEmpty else { return nil }
        retryFailedPhotos()
        return album.shuffle.next(using: &album.random)
    }

    private mutating func askForFrame(_ photo: Photo, size: FrameSize) {
        album.preparing = photo
        effects.append(.prepareFrame(photo, size: size))
    }

    /// Puts the photos that failed once back into the rotation, for their second and last try.
    private mutating func retryFailedPhotos() {
        let waiting = album.failures.waitingForRetry
        guard !waiting.isEmpty else { return }
        album.failures.waitingForRetry = []
        for photo in waiting.sorted(by: { $0.description < $1.description }) {
            album.shuffle.add(photo, using: &album.random)
        }
    }

    /// Puts `shown` on screen at `now` and schedules the next tick one interval later.
    mutating func present(_ shown: ShownPhoto, now: AlbumTime) {
        album.tickIsDue = false
        if album.shown != shown {
            album.state.fade = fade(from: album.shown, to: shown)
            album.state.content = .showing(shown)
            effects.append(.report(.photoShown(shown.photo)))
        }
        // Saved before the next photo is picked: the round as it is on screen.
        let round = album.shuffle.snapshot
        if round != album.savedRound {
            album.savedRound = round
            effects.append(.saveRound(round))
        }
        album.presentations += 1
        if let presentationLimit, album.presentations >= presentationLimit {
            return end(.countReached(album.presentations))
        }
        let deadline = now.advanced(by: interval)
        album.nextTick = deadline
        effects.append(.scheduleTick(at: deadline))
        prepareNextFrame(now: nil)
    }

    /// The fade from the photo on screen to `next`: only from one photo to another, never
    /// from black, and only when fades are on.
    private func fade(from previous: ShownPhoto?, to next: ShownPhoto) -> Fade? {
        guard case .fade(let duration) = transition, let previous, previous.photo != next.photo else { return nil }
        return Fade(from: previous.photo, duration: duration)
    }

    // MARK: Emptiness and the end

    /// Shows why there is nothing to show, and logs it once.
    private mutating func showEmptiness() {
        album.tickIsDue = false
        let content: AlbumState.Content
        var event: AlbumEvent?
        switch album.listState {
        case .loading:
            content = .loading
        case .failed(let reason):
            content = .failed(reason: reason)
        case .loaded:
            let skipped = album.failures.skipped.count
            content = skipped == 0 ? .noPhotos(.emptyAlbum) : .noPhotos(.noneReadable(skipped: skipped))
            event = skipped == 0 ? .albumEmpty : .noReadablePhotos(skipped: skipped)
        }
        if let summary = album.failures.takeSummary() { effects.append(.report(summary)) }
        if let event, album.reportedEmptiness != content { effects.append(.report(event)) }
        album.reportedEmptiness = content
        album.state.content = content
        album.state.fade = nil
        cancelPendingTick()
    }

    private mutating func end(_ reason: AlbumEnd) {
        album.state.end = reason
        cancelPendingTick()
        effects.append(.report(.ended(reason)))
        effects.append(.end)
    }

    /// Cancels the interval's pending tick, if one is set: the one place a tick is cancelled.
    mutating func cancelPendingTick() {
        guard album.nextTick != nil else { return }
        album.nextTick = nil
        effects.append(.cancelTick)
    }
}
