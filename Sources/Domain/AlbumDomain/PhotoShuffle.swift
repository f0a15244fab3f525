/// The order photos are shown in: a shuffle without repeats.
///
/// Every photo is shown once per round, in random order; a new round never starts with the
/// photo that ended the last one, so the same photo never shows twice in a row. With one photo
/// it stays. Photos that join mid-round are slotted into what is left of the round at random;
/// photos that leave are dropped from it. A round saved as a ``ShuffleSnapshot`` can be
/// continued after a restart with ``restore(_:)``.
///
/// Picking, removing and re-adding a photo cost O(1) (amortised): removed photos are only
/// marked, and dropped from the lists when a pick or a new round passes them. So a folder of
/// ten thousand unreadable files costs ten thousand cheap steps, not ten thousand list scans.
public struct PhotoShuffle: Equatable, Sendable {
    /// Where a photo of the rotation stands in the current round.
    private enum Place: Equatable, Sendable {
        /// Still to show: a live photo of ``remainingStack``.
        case remaining
        /// Shown: a live photo of ``shownList``.
        case shown
    }

    /// Every photo in the rotation, and where it stands in the round: one table, not three
    /// sets (every photo is in the round, still to show or shown).
    private var places: [Photo: Place] = [:]
    /// How many photos are still to show in the round.
    private var remainingCount = 0
    /// The rotation in the order photos were added; may hold photos no longer in ``places``.
    private var order: [Photo] = []
    /// What is left of the current round, next *last*; may hold photos no longer listed.
    private var remainingStack: [Photo] = []
    /// What the current round has shown, oldest first; may hold photos no longer listed.
    private var shownList: [Photo] = []
    /// The photo handed out last.
    public private(set) var last: Photo?
    /// The photo handed out before ``last``: what is still on screen when ``last`` turns out
    /// unreadable and is removed, so the pick after it avoids that one instead.
    private var beforeLast: Photo?
    /// The saved round being continued, until it ends: tells photos that come back after a
    /// restart (shown, or still to show) from photos that are new.
    private var restoredRound: RestoredRound?

    private struct RestoredRound: Equatable, Sendable {
        var remaining: Set<Photo>
        var shown: Set<Photo>
    }

    /// Creates an empty shuffle.
    public init() {}

    /// Every photo in the rotation, in the order they joined it.
    public var photos: [Photo] { order.filter { places[$0] != nil } }

    /// Whether `photo` is in the rotation.
    public func contains(_ photo: Photo) -> Bool { places[photo] != nil }

    /// What is left of the current round, next first.
    public var remainingInRound: [Photo] { remainingStack.reversed().filter { places[$0] == .remaining } }

    /// What the current round has shown, oldest first.
    public var shownInRound: [Photo] { shownList.filter { places[$0] == .shown } }

    /// Where the round stands, for a ``ShuffleMemory``.
    public var snapshot: ShuffleSnapshot {
        ShuffleSnapshot(remaining: remainingInRound.map(\.id), shown: shownInRound.map(\.id), last: last?.id)
    }

    /// Continues a saved round. Call it once, before the first ``replacePhotos(with:using:)``:
    /// photos listed later go back where the snapshot had them (still to show, or shown), and
    /// only photos it does not know join the round as new ones.
    public mutating func restore(_ snapshot: ShuffleSnapshot) {
        restoredRound = RestoredRound(
            remaining: Set(snapshot.remaining.map(Photo.init(id:))), shown: Set(snapshot.shown.map(Photo.init(id:))))
        last = snapshot.last.map(Photo.init(id:))
    }

    /// Replaces the set of photos. New ones join the current round at random places; removed
    /// ones leave it.
    public mutating func replacePhotos(with newPhotos: [Photo], using random: inout some RandomNumberGenerator) {
        let newSet = Set(newPhotos)
        for photo in places.keys.filter({ !newSet.contains($0) }) { forget(photo) }
        // Sized once (growing by doubling leaves up to twice the room: 10,000 photos in 16,384).
        let joining = newPhotos.count - places.count
        if joining > 0 {
            places.reserveCapacity(newPhotos.count)
            order.reserveCapacity(order.count + joining)
            remainingStack.reserveCapacity(remainingStack.count + joining)
        }
        for photo in newPhotos where places[photo] == nil { add(photo, using: &random) }
    }

    /// Puts `photo` into the rotation, into what is left of the round at a random place
    /// (unless a restored round says it was already shown). Nothing happens when it is there.
    public mutating func add(_ photo: Photo, using random: inout some RandomNumberGenerator) {
        guard places[photo] == nil else { return }
        order.append(photo)
        if let restoredRound, restoredRound.shown.contains(photo), !restoredRound.remaining.contains(photo) {
            shownList.append(photo)
            places[photo] = .shown
            return
        }
        insertIntoRound(photo, using: &random)
    }

    /// Takes `photo` out of the rotation (for example, because it cannot be decoded).
    /// When it is the photo handed out last, the one before it counts as last again: that is
    /// the photo still on screen, and the next pick must not repeat it.
    public mutating func remove(_ photo: Photo) {
        forget(photo)
        if last == photo {
            last = beforeLast
            beforeLast = nil
        }
    }

    /// The next photo to show, or `nil` when there are none.
    public mutating func next(using random: inout some RandomNumberGenerator) -> Photo? {
        guard !places.isEmpty else { return nil }
        if places.count == 1, let only = places.first?.key {
            startRound(with: [], shown: [only])
            last = only
            return only
        }
        // A round whose only photo left is the one just shown (it left and came back, for
        // example because its file was replaced) hands that photo on to the next round.
        if remainingCount == 0 || (remainingCount == 1 && last.map { places[$0] == .remaining } == true) {
            startRound(with: photos.shuffled(using: &random), shown: [])
            restoredRound = nil
        }
        dropRemovedFromTop()
        if remainingStack.last == last {
            remainingStack.removeAll { places[$0] != .remaining }
            let other = Int.random(in: 0..<remainingStack.count - 1, using: &random)
            remainingStack.swapAt(remainingStack.count - 1, other)
        }
        let photo = remainingStack.removeLast()
        places[photo] = .shown
        remainingCount -= 1
        shownList.append(photo)
        beforeLast = last
        last = photo
        return photo
    }

    private mutating func forget(_ photo: Photo) {
        guard let place = places.removeValue(forKey: photo) else { return }
        if place == .remaining { remainingCount -= 1 }
        if order.count > 2 * places.count + 16 { order = photos }
    }

    private mutating func insertIntoRound(_ photo: Photo, using random: inout some RandomNumberGenerator) {
        let place = Int.random(in: 0...remainingStack.count, using: &random)
        remainingStack.insert(photo, at: place)
        places[photo] = .remaining
        remainingCount += 1
    }

    /// Begins a round: `upcoming` next first. Together with `shown`, `upcoming` holds every photo
    /// of the rotation.
    private mutating func startRound(with upcoming: [Photo], shown: [Photo]) {
        remainingStack = upcoming.reversed()
        shownList = shown
        // Walked by index: the table is changed in place, not copied.
        var index = places.startIndex
        while index != places.endIndex {
            places.values[index] = .shown
            places.formIndex(after: &index)
        }
        remainingCount = 0
        for photo in upcoming where places[photo] == .shown {
            places[photo] = .remaining
            remainingCount += 1
        }
    }

    /// Pops removed photos off the end of the round, so the end is the next live photo.
    private mutating func dropRemovedFromTop() {
        while let top = remainingStack.last, places[top] != .remaining { remainingStack.removeLast() }
    }
}
