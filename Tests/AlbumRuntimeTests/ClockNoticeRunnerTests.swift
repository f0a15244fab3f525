import AlbumDomain
import AlbumRuntime
import Clocks
import Testing

/// The runner times the "Clock not set" line on its injected clock: it goes a minute after it
/// came, not a moment earlier.
@Suite struct ClockNoticeRunnerTests {
    @Test func theLineGoesAMinuteLaterOnTheRunnersClock() async throws {
        let clock = TestClock()
        let runner = AlbumRunner(
            reducer: PublishPhoto(interval: .seconds(15)), clock: clock, preparer: RecordingPreparer())
        let run = Task {
            await runner.run(
                repository: FixedRepository([]), frameSize: FrameSize(width: 8, height: 4), random: SplitMix64(seed: 1))
        }
        var states = runner.state.makeAsyncIterator()
        runner.send(.clockFoundUnset(now: runner.now, advice: "add Wi-Fi in babyalbum.txt"))
        while let state = await states.next(), state.notice == nil {}
        await untilSomethingSleeps(on: clock)
        await clock.advance(by: .seconds(59))
        #expect(runner.state.value.notice != nil)
        await clock.advance(by: .seconds(1))
        while let state = await states.next(), state.notice != nil {}
        #expect(runner.state.value.notice == nil)
        runner.send(.stopSignalReceived(15))
        await run.value
    }
}
