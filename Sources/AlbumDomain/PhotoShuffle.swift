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
    /// Every photo in the rotation.
    private var members: Set<Photo> = []
    /// The rotation in the order photos were added; may hold photos no longer in ``members``.
    private var order: [Photo] = []
    /// What is left of the current round, next *last*; may hold photos no longer listed.
    private var remainingStack: [Photo] = []
    /// The live photos of ``remainingStack``.
    private var remainingMembers: Set<Photo> = []
    /// What the current round has shown, oldest first; may hold photos no longer listed.
    private var shownList: [Photo] = []
    /// The live photos of ``shownList``.
    private var shownMembers: Set<Photo> = []
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
    public var photos: [Photo] { order.filter(members.contains) }

    /// Whether `photo` is in the rotation.
    public func contains(_ photo: Photo) -> Bool { members.contains(photo) }

    /// What is left of the current round, next first.
    public var remainingInRound: [Photo] { remainingStack.reversed().filter(remainingMembers.contains) }

    /// What the current round has shown, oldest first.
    public var shownInRound: [Photo] { shownList.filter(shownMembers.contains) }

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
        for photo in members where !newSet.contains(photo) { forget(photo) }
        // Sized once (growing by doubling leaves up to twice the room: 10,000 photos in 16,384).
        let joining = newPhotos.count - members.count
        if joining > 0 {
            members.reserveCapacity(newPhotos.count)
            order.reserveCapacity(order.count + joining)
            remainingStack.reserveCapacity(remainingStack.count + joining)
            remainingMembers.reserveCapacity(remainingMembers.count + joining)
        }
        for photo in newPhotos where !members.contains(photo) { add(photo, using: &random) }
    }

    /// Puts `photo` into the rotation, into what is left of the round at a random place
    /// (unless a restored round says it was already shown). Nothing happens when it is there.
    public mutating func add(_ photo: Photo, using random: inout some RandomNumberGenerator) {
        guard members.insert(photo).inserted else { return }
        order.append(photo)
        if let restoredRound, restoredRound.shown.contains(photo), !restoredRound.remaining.contains(photo) {
            shownList.append(photo)
            shownMembers.insert(photo)
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
        guard !members.isEmpty else { return nil }
        if members.count == 1, let only = members.first {
            startRound(with: [], shown: [only])
            last = only
            return only
        }
        // A round whose only photo left is the one just shown (it left and came back, for
        // example because its file was replaced) hands that photo on to the next round.
        if remainingMembers.isEmpty || (remainingMembers.count == 1 && last.map(remainingMembers.contains) == true) {
            startRound(with: photos.shuffled(using: &random), shown: [])
            restoredRound = nil
        }
        dropRemovedFromTop()
        if remainingStack.last == last {
            remainingStack.removeAll { !remainingMembers.contains($0) }
            let other = Int.random(in: 0..<remainingStack.count - 1, using: &random)
            remainingStack.swapAt(remainingStack.count - 1, other)
        }
        let photo = remainingStack.removeLast()
        remainingMembers.remove(photo)
        shownList.append(photo)
        shownMembers.insert(photo)
        beforeLast = last
        last = photo
        return photo
    }

    private mutating func forget(_ photo: Photo) {
        guard members.remove(photo) != nil else { return }
        remainingMembers.remove(photo)
        shownMembers.remove(photo)
        if order.count > 2 * members.count + 16 { order = photos }
    }

    private mutating func insertIntoRound(_ photo: Photo, using random: inout some RandomNumberGenerator) {
        let place = Int.random(in: 0...remainingStack.count, using: &random)
        remainingStack.insert(photo, at: place)
        remainingMembers.insert(photo)
    }

    /// Begins a round: `upcoming` next first.
    private mutating func startRound(with upcoming: [Photo], shown: [Photo]) {
        remainingStack = upcoming.reversed()
        remainingMembers = Set(upcoming)
        shownList = shown
        shownMembers = Set(shown)
    }

    /// Pops removed photos off the end of the round, so the end is the next live photo.
    private mutating func dropRemovedFromTop() {
        while let top = remainingStack.last, !remainingMembers.contains(top) { remainingStack.removeLast() }
    }
}
