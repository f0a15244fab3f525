import AlbumDomain
import Testing

@testable import DRMDisplay

/// When the display animates a fade: only from the picture on screen, lit, at the screen's size.
@Suite struct CrossfadeTests {
    let screen = FrameSize(width: 4, height: 2)
    let sunset = Frame(size: FrameSize(width: 4, height: 2), pixels: Array(repeating: 0xFF_8040, count: 8))
    let meadow = Frame(size: FrameSize(width: 4, height: 2), pixels: Array(repeating: 0x20_C040, count: 8))

    func showing(_ frame: Frame, named name: String, power: DisplayPower = .on, fadingFrom old: String? = nil)
        -> FrameViewModel
    {
        FrameViewModel(
            content: .photo(Photo(id: PhotoID(name)), frame: frame), displayPower: power,
            transition: old.map { .fade(from: Photo(id: PhotoID($0)), duration: .seconds(1)) })
    }

    /// The view model names the photo faded from; the pixels are the screen's own.
    @Test func fadesFromThePhotoOnScreen() throws {
        let fade = try #require(
            Crossfade(
                showing(meadow, named: "meadow.png", fadingFrom: "sunset.png"),
                onScreen: showing(sunset, named: "sunset.png"),
                screen: screen))
        #expect(fade.from == sunset && fade.to == meadow && fade.duration == .seconds(1))
    }

    @Test func showsAtOnceWhenTheScreenDoesNotShowWhereTheFadeStarts() {
        let fadeIn = showing(meadow, named: "meadow.png", fadingFrom: "sunset.png")
        // Nothing on screen yet, black, another photo, or a display that was off (waking up).
        #expect(Crossfade(fadeIn, onScreen: nil, screen: screen) == nil)
        #expect(
            Crossfade(fadeIn, onScreen: FrameViewModel(content: .black(reason: "t"), displayPower: .on), screen: screen)
                == nil)
        #expect(Crossfade(fadeIn, onScreen: showing(meadow, named: "meadow.png"), screen: screen) == nil)
        #expect(Crossfade(fadeIn, onScreen: showing(sunset, named: "sunset.png", power: .off), screen: screen) == nil)
        // A view model without a fade (`--transition none`, one photo), or a screen of another size.
        #expect(
            Crossfade(showing(meadow, named: "meadow.png"), onScreen: showing(sunset, named: "s"), screen: screen)
                == nil)
        #expect(
            Crossfade(fadeIn, onScreen: showing(sunset, named: "sunset.png"), screen: FrameSize(width: 8, height: 2))
                == nil)
    }

    @Test func aChangeOfBacklightAloneDoesNotFadeAgain() {
        var dimmed = showing(meadow, named: "meadow.png", fadingFrom: "sunset.png")
        let onScreen = dimmed
        dimmed.backlightPercent = 10
        #expect(Crossfade(dimmed, onScreen: onScreen, screen: screen) == nil)
    }
}
