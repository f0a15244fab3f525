import AlbumDomain
import Testing

/// Drives the ``PublishPhoto`` reducer synchronously, as TCA's `TestStore` does: each step
/// sends an action with the change it expects to the state (none when the test names none); the
/// whole ``AlbumState`` is compared, so a state change the test did not name fails it.
///
/// Every effect a step returns must be accounted for before the next step and when the store
/// goes (its `deinit`, at the end of the test, records an issue otherwise): named in order with
/// ``receive(_:sourceLocation:)`` (or ``receive(_:savingTheRoundShowing:before:sourceLocation:)``
/// when a round is saved), or taken with ``takeEffects()`` for the test's own checks. There is no
/// way to pass them over: a step that only moves the test along names its effects too.
final class AlbumTestStore {
    let reducer: PublishPhoto
    private(set) var album: Album
    /// Effects a step returned that its test has not yet named.
    private var unasserted: [AlbumEffect] = []
    /// Where the test made the store, for the issue its `deinit` records.
    private let createdAt: SourceLocation
    /// The photos the test listed last (`photoListChanged(.loaded)`), by the test's own record:
    /// what a saved round must hold, known without asking the reducer.
    private var listed: Set<PhotoID> = []
    /// The photos the test made fail: out of the rotation for a while, so a round may lack them.
    private var failed: Set<PhotoID> = []

    init(
        reducer: PublishPhoto = PublishPhoto(interval: .seconds(15)), seed: UInt64 = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.reducer = reducer
        album = Album(random: SplitMix64(seed: seed))
        createdAt = sourceLocation
    }

    /// The end of the test: effects still unaccounted for fail it.
    deinit {
        if !unasserted.isEmpty {
            Issue.record("effects not asserted at the end of the test: \(unasserted)", sourceLocation: createdAt)
        }
    }

    var state: AlbumState { album.state }
    /// The last step's effects, still to be checked (for a value the check needs first).
    var unassertedEffects: [AlbumEffect] { unasserted }
    var shownID: String? { album.shown?.photo.description }

    /// Sends `action`, checks that the state changed exactly as `change` changes the state before
    /// it (not at all without `change`), and returns the effects, which the caller must then check
    /// with `receive`. Fails when the previous step's effects were not all checked.
    @discardableResult
    func send(
        _ action: AlbumAction, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout AlbumState) -> Void = { _ in }
    ) -> [AlbumEffect] {
        #expect(
            unasserted.isEmpty, "effects not asserted before \(action): \(unasserted)", sourceLocation: sourceLocation)
        var expected = album.state
        change(&expected)
        if case .photoListChanged(.loaded(let list)) = action { listed = Set(list.map(\.id)) }
        if case .framePreparationFailed(let photo, _, _) = action { failed.insert(photo.id) }
        unasserted = reducer.reduce(&album, action)
        #expect(album.state == expected, "the state after \(action)", sourceLocation: sourceLocation)
        return unasserted
    }

    /// Checks that the last step's effects are exactly `effects`.
    func receive(_ effects: [AlbumEffect], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(unasserted == effects, sourceLocation: sourceLocation)
        unasserted = []
    }

    /// Checks that the last step's effects are exactly `effects` with one `saveRound` after the
    /// photo's report, the round it saves checked against the test's own record
    /// (``checkSavedRound(_:showing:before:sourceLocation:)``), not rebuilt from the reducer's.
    func receive(
        _ effects: [AlbumEffect], savingTheRoundShowing shown: Photo, before next: Photo,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = takeEffects()
        guard let index = actual.firstIndex(where: { if case .saveRound = $0 { true } else { false } }),
            case .saveRound(let saved) = actual[index]
        else {
            Issue.record("no saveRound among \(actual)", sourceLocation: sourceLocation)
            return
        }
        var rest = actual
        rest.remove(at: index)
        #expect(rest == effects, sourceLocation: sourceLocation)
        #expect(
            index > 0 && actual[index - 1] == .report(.photoShown(shown)), "saved right after the photo's report",
            sourceLocation: sourceLocation)
        checkSavedRound(saved, showing: shown, before: next, sourceLocation: sourceLocation)
    }

    /// Takes the last step's effects for the test's own checks (all of them count as asserted).
    func takeEffects() -> [AlbumEffect] {
        defer { unasserted = [] }
        return unasserted
    }

    /// `photo`'s frame arrives at `now` and shows at once, with no fade: the photo is reported
    /// shown, the round saved, the next tick scheduled at `nextTick` and the next photo's frame
    /// asked for, all checked (the saved round against the test's own record, ``checkSavedRound``).
    /// Returns the photo asked for next.
    @discardableResult
    func framePreparedAndShown(
        _ photo: Photo, now: AlbumTime, nextTick: AlbumTime, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Photo {
        let prepared = frame()
        let effects = send(.framePrepared(photo, prepared, now: now), sourceLocation: sourceLocation) {
            $0.content = showing(photo, prepared)
        }
        let next = takeEffects().preparedPhoto!
        guard effects.count == 4, case .saveRound(let saved) = effects[1] else {
            Issue.record(
                "expected four effects with the saved round second: \(effects)", sourceLocation: sourceLocation)
            return next
        }
        #expect(
            [effects[0], effects[2], effects[3]] == [
                .report(.photoShown(photo)), .scheduleTick(at: nextTick), .prepareFrame(next, size: screen),
            ], sourceLocation: sourceLocation)
        checkSavedRound(saved, showing: photo, before: next, sourceLocation: sourceLocation)
        return next
    }

    /// Succeeds in preparing `photo` and, when it waits for its tick (a photo is on screen), fires
    /// the tick at its deadline, so the photo shows. Returns the photo asked for next.
    func showPrepared(_ photo: Photo, now: AlbumTime) -> Photo? {
        let prepared = frame()
        guard album.shown != nil else {
            let effects = send(.framePrepared(photo, prepared, now: now)) { $0.content = showing(photo, prepared) }
            #expect(takeEffects().contains(.report(.photoShown(photo))), "\(photo) reported shown: \(effects)")
            return effects.preparedPhoto
        }
        return showAtTick(photo, preparedAt: now, tick: album.nextTick!)
    }

    /// Succeeds in preparing `photo` at `preparedAt`, before the tick, which waits for the tick;
    /// fires the tick at `tick`, which shows it. Returns the photo asked for next.
    func showAtTick(_ photo: Photo, preparedAt: AlbumTime, tick: AlbumTime) -> Photo? {
        let prepared = frame()
        send(.framePrepared(photo, prepared, now: preparedAt))
        receive([])
        let effects = send(.intervalElapsed(now: tick)) { $0.content = showing(photo, prepared) }
        #expect(takeEffects().contains(.report(.photoShown(photo))), "\(photo) reported shown: \(effects)")
        return effects.preparedPhoto
    }

    /// Checks the round a `saveRound` effect carries when `shown` went on screen and `next` was
    /// then drawn from the shuffle, against the test's own record rather than the reducer's: the
    /// photo shown is the last one handed out, the next one is first of what remains, and what
    /// remains and what was shown are the listed photos (but for those made to fail), each once.
    func checkSavedRound(
        _ saved: ShuffleSnapshot, showing shown: Photo, before next: Photo,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(saved.last == shown.id, "the last photo handed out", sourceLocation: sourceLocation)
        #expect(
            saved.remaining.first == next.id, "the next photo first of what remains", sourceLocation: sourceLocation)
        let all = saved.remaining + saved.shown
        #expect(Set(all).count == all.count, "each photo once: \(saved)", sourceLocation: sourceLocation)
        #expect(
            Set(all).isSubset(of: listed) && listed.subtracting(failed).isSubset(of: Set(all)),
            "the listed photos (but for those that failed): \(saved)", sourceLocation: sourceLocation)
        #expect(saved.shown.last == shown.id || saved.shown.isEmpty, "\(saved)", sourceLocation: sourceLocation)
    }
}

let screen = FrameSize(width: 4, height: 2)
let otherScreen = FrameSize(width: 2, height: 4)

func photos(_ names: String...) -> [Photo] { names.map { Photo(id: PhotoID($0)) } }

func at(_ seconds: Int) -> AlbumTime { AlbumTime(sinceStart: .seconds(seconds)) }

/// The content of a state showing `photo` with `frame`.
func showing(_ photo: Photo, _ frame: Frame) -> AlbumState.Content { .showing(ShownPhoto(photo: photo, frame: frame)) }

/// A frame whose identity tells it apart (frames compare by identity).
func frame(_ size: FrameSize = screen) -> Frame { Frame.black(size) }

extension [AlbumEffect] {
    /// The photo of the single `prepareFrame` effect, if there is exactly one.
    var preparedPhoto: Photo? {
        let photos = compactMap { effect -> Photo? in
            if case .prepareFrame(let photo, _) = effect { return photo }
            return nil
        }
        return photos.count == 1 ? photos[0] : nil
    }
}
