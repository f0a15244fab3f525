import AlbumDomain
import DRMDisplay
import Testing

@Suite struct ModeChoiceTests {
    let modes = [
        DisplayMode(width: 1920, height: 1080, refreshHz: 60),
        DisplayMode(width: 1280, height: 800, refreshHz: 75, isPreferred: true),
        DisplayMode(width: 1280, height: 800, refreshHz: 60),
        DisplayMode(width: 1024, height: 768, refreshHz: 60),
        DisplayMode(width: 1024, height: 768, refreshHz: 75),
    ]

    @Test func takesThePreferredModeWhenNoneIsRequested() {
        #expect(ModeChoice.choose(from: modes, requested: nil) == 1)
    }

    @Test func aModeFromTheKernelCommandLineWinsOverThePreferredOne() {
        var modes = modes
        modes[3].isUserDefined = true
        #expect(ModeChoice.choose(from: modes, requested: nil) == 3)
    }

    @Test func withoutAPreferredModeTakesTheLargest() {
        let modes = [
            DisplayMode(width: 800, height: 600, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 50),
            DisplayMode(width: 1280, height: 1024, refreshHz: 60),
        ]
        #expect(ModeChoice.choose(from: modes, requested: nil) == 1)
    }

    @Test func aRequestedSizePrefersThePreferredModeThenTheHighestRefresh() {
        #expect(ModeChoice.choose(from: modes, requested: FrameSize(width: 1280, height: 800)) == 1)
        #expect(ModeChoice.choose(from: modes, requested: FrameSize(width: 1024, height: 768)) == 4)
        #expect(ModeChoice.choose(from: modes, requested: FrameSize(width: 1920, height: 1080)) == 0)
    }

    @Test func aSizeTheDisplayDoesNotOfferIsNotChosen() {
        #expect(ModeChoice.choose(from: modes, requested: FrameSize(width: 3840, height: 2160)) == nil)
        #expect(ModeChoice.choose(from: [], requested: nil) == nil)
    }
}
