/// The order photos are shown in: a shuffle without repeats.
///
/// Every photo is shown once per round, in random order; a new round never starts with the
/// photo that ended the last one, so the same photo never shows twice in a row. With one photo
/// it stays. Photos that join mid-round are slotted into what is left of the round at random;
/// photos that leave are dropped from it.
public struct PhotoShuffle: Equatable, Sendable {
    /// Every photo in the rotation, in the order the repository gave them.
    public private(set) var photos: [Photo] = []
    /// What is left of the current round, next first.
    public private(set) var remainingInRound: [Photo] = []
    /// The photo handed out last.
    public private(set) var last: Photo?

    /// Creates an empty shuffle.
    public init() {}

    /// Replaces the set of photos. New ones join the current round at random places; removed
    /// ones leave it.
    public mutating func replacePhotos(with newPhotos: [Photo], using random: inout some RandomNumberGenerator) {
        let newSet = Set(newPhotos)
        let oldSet = Set(photos)
        remainingInRound.removeAll { !newSet.contains($0) }
        for photo in newPhotos where !oldSet.contains(photo) {
            let place = Int.random(in: 0...remainingInRound.count, using: &random)
            remainingInRound.insert(photo, at: place)
        }
        photos = newPhotos
    }

    /// Takes `photo` out of the rotation (for example, because it cannot be decoded).
    public mutating func remove(_ photo: Photo) {
        photos.removeAll { $0 == photo }
        remainingInRound.removeAll { $0 == photo }
    }

    /// The next photo to show, or `nil` when there are none.
    public mutating func next(using random: inout some RandomNumberGenerator) -> Photo? {
        guard !photos.isEmpty else { return nil }
        if photos.count == 1 {
            last = photos[0]
            remainingInRound = []
            return photos[0]
        }
        if remainingInRound.isEmpty {
            remainingInRound = photos.shuffled(using: &random)
        }
        if remainingInRound[0] == last {
            let other = Int.random(in: 1..<remainingInRound.count, using: &random)
            remainingInRound.swapAt(0, other)
        }
        let photo = remainingInRound.removeFirst()
        last = photo
        return photo
    }
}
