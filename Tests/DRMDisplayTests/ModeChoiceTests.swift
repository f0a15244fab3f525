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

    /// What a 4K television's EDID gives, in a driver's order: the preferred mode first, then
    /// the rest largest first, with interlaced and 24-30 Hz modes among them.
    let television = [
        DisplayMode(width: 3840, height: 2160, refreshHz: 60, isPreferred: true),
        DisplayMode(width: 3840, height: 2160, refreshHz: 50),
        DisplayMode(width: 3840, height: 2160, refreshHz: 30),
        DisplayMode(width: 2560, height: 1440, refreshHz: 60),
        DisplayMode(width: 1920, height: 1200, refreshHz: 60),
        DisplayMode(width: 1920, height: 1080, refreshHz: 60, isInterlaced: true),
        DisplayMode(width: 1920, height: 1080, refreshHz: 30),
        DisplayMode(width: 1920, height: 1080, refreshHz: 50),
        DisplayMode(width: 1920, height: 1080, refreshHz: 60),
        DisplayMode(width: 1280, height: 720, refreshHz: 60),
        DisplayMode(width: 1024, height: 768, refreshHz: 60),
    ]

    func automatic(_ modes: [DisplayMode]) -> ModeChoice? { ModeChoice.choose(from: modes, requested: .automatic) }

    // MARK: the display's own mode, at most 1920x1200

    @Test func takesThePreferredModeWhenNoneIsRequested() {
        #expect(automatic(modes)?.index == 1)
        #expect(automatic(modes)?.insteadOf == nil)
        #expect(automatic(modes)?.note == nil)
    }

    @Test func aModeFromTheKernelCommandLineWinsOverThePreferredOne() {
        var modes = modes
        modes[3].isUserDefined = true
        #expect(automatic(modes)?.index == 3)
    }

    @Test func withoutAPreferredModeTakesTheLargest() {
        let modes = [
            DisplayMode(width: 800, height: 600, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 50),
            DisplayMode(width: 1280, height: 1024, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 1)
    }

    @Test func aPreferred1920x1200IsKept() {
        let modes = [
            DisplayMode(width: 1920, height: 1200, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
            DisplayMode(width: 1680, height: 1050, refreshHz: 60),
        ]
        #expect(automatic(modes) == ModeChoice.choose(from: modes, requested: .native))
        #expect(automatic(modes)?.index == 0)
        #expect(automatic(modes)?.note == nil)
    }

    @Test func aPortraitPanelOf1200x1920KeepsItsMode() {
        let modes = [
            DisplayMode(width: 1200, height: 1920, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 1080, height: 1920, refreshHz: 60),
            DisplayMode(width: 800, height: 1280, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 0)
        #expect(automatic(modes)?.note == nil)
        #expect(ModeChoice.fits(FrameSize(width: 1200, height: 1920)))
        #expect(!ModeChoice.fits(FrameSize(width: 1200, height: 1921)))
        #expect(!ModeChoice.fits(FrameSize(width: 1440, height: 2560)))
    }

    // MARK: larger than 1920x1200: the largest of the same shape within it

    @Test func a4KTelevisionIsDrawnIn1080p60() throws {
        let choice = try #require(automatic(television))
        #expect(choice.index == 8)
        #expect(choice.mode == DisplayMode(width: 1920, height: 1080, refreshHz: 60))
        #expect(choice.insteadOf == television[0])
        #expect(choice.note == "display prefers 3840x2160@60; using 1920x1080@60 (mode = native keeps 3840x2160)")
    }

    @Test func of1080pModesThePreferredModesRefreshComesFirst() {
        var modes = television
        modes[0].isPreferred = false
        modes[1].isPreferred = true  // a European television: 3840x2160@50
        #expect(automatic(modes)?.mode == DisplayMode(width: 1920, height: 1080, refreshHz: 50))
        #expect(automatic(modes)?.note?.hasPrefix("display prefers 3840x2160@50; using 1920x1080@50") == true)
    }

    @Test func a4KAt30HzStillGets60HzWhenOffered() {
        var modes = television
        modes[0].isPreferred = false
        modes[2].isPreferred = true  // 3840x2160@30 (HDMI 1.4)
        #expect(automatic(modes)?.mode == DisplayMode(width: 1920, height: 1080, refreshHz: 60))
    }

    @Test func withOnly1080p30And24TheBestOfThemIsTaken() {
        let modes = [
            DisplayMode(width: 3840, height: 2160, refreshHz: 30, isPreferred: true),
            DisplayMode(width: 1920, height: 1080, refreshHz: 24),
            DisplayMode(width: 1920, height: 1080, refreshHz: 30),
            DisplayMode(width: 1920, height: 1080, refreshHz: 25),
        ]
        #expect(automatic(modes)?.index == 2)
        #expect(
            automatic(modes)?.note == "display prefers 3840x2160@30; using 1920x1080@30 (mode = native keeps 3840x2160)"
        )
    }

    @Test func aSmallerModeOfAtLeast50HzWinsOverA30HzOne() {
        let modes = [
            DisplayMode(width: 3840, height: 2160, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 1920, height: 1080, refreshHz: 30),
            DisplayMode(width: 1920, height: 1080, refreshHz: 24),
            DisplayMode(width: 1280, height: 720, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 3)
    }

    @Test func interlacedModesAreNeverTakenInstead() {
        let modes = [
            DisplayMode(width: 3840, height: 2160, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60, isInterlaced: true),
            DisplayMode(width: 1280, height: 720, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 2)
        #expect(
            DisplayMode(width: 1920, height: 1080, refreshHz: 60, isInterlaced: true).description == "1920x1080i@60")
    }

    @Test func a5KDisplayIsDrawnIn1080p() {
        let modes = [
            DisplayMode(width: 5120, height: 2880, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 3840, height: 2160, refreshHz: 60),
            DisplayMode(width: 2560, height: 1440, refreshHz: 60),
            DisplayMode(width: 1920, height: 1200, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 4)
    }

    @Test func anUltrawideTakesAModeOfItsOwnShapeWithinTheTolerance() {
        // 3440x1440 is 2.389:1, 1720x720 2.389:1, 2560x1080 2.370:1 (0.8 % apart, but wider than 1920).
        let modes = [
            DisplayMode(width: 3440, height: 1440, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 2560, height: 1080, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
            DisplayMode(width: 1720, height: 720, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 3)
        #expect(ModeChoice.sameShape(FrameSize(width: 2560, height: 1080), FrameSize(width: 3440, height: 1440)))
        #expect(ModeChoice.sameShape(FrameSize(width: 1366, height: 768), FrameSize(width: 3840, height: 2160)))
        #expect(!ModeChoice.sameShape(FrameSize(width: 1920, height: 1200), FrameSize(width: 3840, height: 2160)))
        #expect(!ModeChoice.sameShape(FrameSize(width: 1920, height: 1080), FrameSize(width: 4096, height: 2160)))
    }

    @Test func anUltrawideWithNothingOfItsShapeWithin1920KeepsItsMode() {
        let modes = [
            DisplayMode(width: 5120, height: 2160, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 2560, height: 1080, refreshHz: 60),
            DisplayMode(width: 1920, height: 1080, refreshHz: 60),
        ]
        #expect(automatic(modes)?.index == 0)
        #expect(automatic(modes)?.keptLarge == true)
    }

    /// Decided: a mode of another shape would be stretched by the display (round faces made
    /// oval), and the card's CMA holds 4K buffers anyway (`mode = native`): the own mode is kept.
    @Test func a4KWithNoSmallerModeOfItsShapeKeepsItsMode() throws {
        let modes = [
            DisplayMode(width: 3840, height: 2160, refreshHz: 60, isPreferred: true),
            DisplayMode(width: 1920, height: 1200, refreshHz: 60),
            DisplayMode(width: 1280, height: 1024, refreshHz: 60),
            DisplayMode(width: 1024, height: 768, refreshHz: 60),
        ]
        let choice = try #require(automatic(modes))
        #expect(choice.index == 0)
        #expect(choice.insteadOf == nil)
        #expect(choice.keptLarge)
        #expect(
            choice.note
                == "display prefers 3840x2160@60 and offers no mode of its shape within 1920x1200: using 3840x2160")
    }

    @Test func aLargeModeFromTheKernelCommandLineIsSteppedDownToo() {
        var modes = television
        modes[2].isUserDefined = true  // video=HDMI-A-1:3840x2160@30
        #expect(automatic(modes)?.mode == DisplayMode(width: 1920, height: 1080, refreshHz: 60))
        #expect(automatic(modes)?.insteadOf == modes[2])
        #expect(ModeChoice.choose(from: modes, requested: .native)?.index == 2)
    }

    // MARK: mode = native, mode = WxH

    @Test func nativeKeepsTheDisplaysOwnMode() {
        #expect(ModeChoice.choose(from: television, requested: .native)?.index == 0)
        #expect(ModeChoice.choose(from: television, requested: .native)?.note == nil)
        #expect(ModeChoice.choose(from: modes, requested: .native)?.index == 1)
        #expect(ModeChoice.choose(from: [], requested: .native) == nil)
    }

    @Test func aRequestedSizePrefersThePreferredModeThenProgressiveThenTheHighestRefresh() {
        #expect(ModeChoice.choose(from: modes, requested: .size(FrameSize(width: 1280, height: 800)))?.index == 1)
        #expect(ModeChoice.choose(from: modes, requested: .size(FrameSize(width: 1024, height: 768)))?.index == 4)
        #expect(ModeChoice.choose(from: modes, requested: .size(FrameSize(width: 1920, height: 1080)))?.index == 0)
        #expect(ModeChoice.choose(from: television, requested: .size(FrameSize(width: 1920, height: 1080)))?.index == 8)
        #expect(ModeChoice.choose(from: television, requested: .size(FrameSize(width: 3840, height: 2160)))?.index == 0)
        #expect(ModeChoice.choose(from: television, requested: .size(FrameSize(width: 1920, height: 1200)))?.index == 4)
        #expect(ModeChoice.choose(from: television, requested: .size(FrameSize(width: 1280, height: 720)))?.note == nil)
    }

    @Test func aSizeTheDisplayDoesNotOfferIsNotChosen() {
        #expect(ModeChoice.choose(from: modes, requested: .size(FrameSize(width: 3840, height: 2160))) == nil)
        #expect(ModeChoice.choose(from: [], requested: .automatic) == nil)
    }
}
