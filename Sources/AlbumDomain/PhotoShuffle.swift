/// The order photos are shown in: a shuffle without repeats.
///
/// Every photo is shown once per round, in random order; a new round never starts with the
/// photo that ended the last one, so the same photo never shows twice in a row. With one photo
/// it stays. Photos that join mid-round are slotted into what is left of the round at random;
/// photos that leave are dropped from it. A round saved as a ``ShuffleSnapshot`` can be
/// continued after a restart with ``restore(_:)``.
public struct PhotoShuffle: Equatable, Sendable {
    /// Every photo in the rotation, in the order the repository gave them.
    public private(set) var photos: [Photo] = []
    /// What is left of the current round, next first.
    public private(set) var remainingInRound: [Photo] = []
    /// What the current round has shown, oldest first.
    public private(set) var shownInRound: [Photo] = []
    /// The photo handed out last.
    public private(set) var last: Photo?
    /// The photo handed out before ``last``: what is still on screen when ``last`` turns out
    /// unreadable and is removed, so the pick after it avoids that one instead.
    private var beforeLast: Photo?
    /// The saved round being continued, until it ends: tells photos that come back after a
    /// restart (shown, or still to show) from photos that are new.
    private var restoredRound: RestoredRound?

    private struct RestoredRound: Equatable, Sendable {
        var remaining: Set<String>
        var shown: Set<String>
    }

    /// Creates an empty shuffle.
    public init() {}

    /// Where the round stands, for a ``ShuffleMemory``.
    public var snapshot: ShuffleSnapshot {
        ShuffleSnapshot(remaining: remainingInRound.map(\.id), shown: shownInRound.map(\.id), last: last?.id)
    }

    /// Continues a saved round. Call it once, before the first ``replacePhotos(with:using:)``:
    /// photos listed later go back where the snapshot had them (still to show, or shown), and
    /// only photos it does not know join the round as new ones.
    public mutating func restore(_ snapshot: ShuffleSnapshot) {
        restoredRound = RestoredRound(remaining: Set(snapshot.remaining), shown: Set(snapshot.shown))
        last = snapshot.last.map(Photo.init(id:))
    }

    /// Replaces the set of photos. New ones join the current round at random places; removed
    /// ones leave it.
    public mutating func replacePhotos(with newPhotos: [Photo], using random: inout some RandomNumberGenerator) {
        let newSet = Set(newPhotos)
        let oldSet = Set(photos)
        remainingInRound.removeAll { !newSet.contains($0) }
        shownInRound.removeAll { !newSet.contains($0) }
        for photo in newPhotos where !oldSet.contains(photo) {
            if let restoredRound, restoredRound.shown.contains(photo.id), !restoredRound.remaining.contains(photo.id) {
                shownInRound.append(photo)
                continue
            }
            let place = Int.random(in: 0...remainingInRound.count, using: &random)
            remainingInRound.insert(photo, at: place)
        }
        photos = newPhotos
    }

    /// Takes `photo` out of the rotation (for example, because it cannot be decoded).
    /// When it is the photo handed out last, the one before it counts as last again: that is
    /// the photo still on screen, and the next pick must not repeat it.
    public mutating func remove(_ photo: Photo) {
        photos.removeAll { $0 == photo }
        remainingInRound.removeAll { $0 == photo }
        shownInRound.removeAll { $0 == photo }
        if last == photo {
            last = beforeLast
            beforeLast = nil
        }
    }

    /// The next photo to show, or `nil` when there are none.
    public mutating func next(using random: inout some RandomNumberGenerator) -> Photo? {
        guard !photos.isEmpty else { return nil }
        if photos.count == 1 {
            last = photos[0]
            remainingInRound = []
            shownInRound = [photos[0]]
            return photos[0]
        }
        // A round whose only photo left is the one just shown (it left and came back, for
        // example because its file was replaced) hands that photo on to the next round.
        if remainingInRound.isEmpty || (remainingInRound.count == 1 && remainingInRound[0] == last) {
            remainingInRound = photos.shuffled(using: &random)
            shownInRound = []
            restoredRound = nil
        }
        if remainingInRound[0] == last {
            let other = Int.random(in: 1..<remainingInRound.count, using: &random)
            remainingInRound.swapAt(0, other)
        }
        let photo = remainingInRound.removeFirst()
        shownInRound.append(photo)
        beforeLast = last
        last = photo
        return photo
    }
}
