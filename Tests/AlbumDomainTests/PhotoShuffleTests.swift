import Testing

@testable import AlbumDomain

@Suite struct PhotoShuffleTests {
    @Test func everyPhotoOncePerRoundNeverTwiceInARow() {
        var random = SplitMix64(seed: 3)
        var shuffle = PhotoShuffle()
        let all = photos("1", "2", "3", "4", "5")
        shuffle.replacePhotos(with: all, using: &random)
        var shown: [Photo] = []
        for _ in 0..<(5 * 200) { shown.append(shuffle.next(using: &random)!) }
        for round in stride(from: 0, to: shown.count, by: 5) {
            #expect(Set(shown[round..<round + 5]) == Set(all))
        }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test func twoPhotosAlternate() {
        var random = SplitMix64(seed: 9)
        var shuffle = PhotoShuffle()
        shuffle.replacePhotos(with: photos("a", "b"), using: &random)
        let shown = (0..<50).map { _ in shuffle.next(using: &random)!.id }
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test func anUnreadablePickDoesNotLetThePhotoOnScreenComeBackNext() {
        for seed in UInt64(0)..<200 {
            var random = SplitMix64(seed: seed)
            var shuffle = PhotoShuffle()
            shuffle.replacePhotos(with: photos("a", "b", "broken"), using: &random)
            var onScreen = shuffle.next(using: &random)!
            for _ in 0..<30 {
                var pick = shuffle.next(using: &random)!
                if pick.id == "broken" {
                    shuffle.remove(pick)
                    pick = shuffle.next(using: &random)!
                }
                #expect(pick != onScreen, "seed \(seed)")
                onScreen = pick
            }
        }
    }

    @Test func aPhotoThatLeavesAndComesBackAsTheLastOfItsRoundIsNotRepeated() {
        var random = SplitMix64(seed: 5)
        var shuffle = PhotoShuffle()
        let all = photos("a", "b", "c")
        shuffle.replacePhotos(with: all, using: &random)
        let first = shuffle.next(using: &random)!
        let second = shuffle.next(using: &random)!
        let third = shuffle.next(using: &random)!
        // The file of the photo on screen is replaced: it leaves the list and comes back.
        shuffle.replacePhotos(with: all.filter { $0 != third }, using: &random)
        shuffle.replacePhotos(with: all, using: &random)
        #expect(shuffle.remainingInRound == [third])
        let next = shuffle.next(using: &random)!
        #expect(next != third)
        #expect(Set([first, second, third]) == Set(all))
    }

    @Test func noPhotosMeansNil() {
        var random = SplitMix64(seed: 1)
        var shuffle = PhotoShuffle()
        #expect(shuffle.next(using: &random) == nil)
        shuffle.replacePhotos(with: photos("a"), using: &random)
        shuffle.remove(Photo(id: "a"))
        #expect(shuffle.next(using: &random) == nil)
    }
}
