import AlbumRuntime
import Testing

@Suite struct StateFlowTests {
    @Test func aNewSubscriberGetsTheCurrentValueFirstAndNoRepeats() async {
        let flow = StateFlow(0)
        flow.emit(1)
        var early = flow.makeAsyncIterator()
        #expect(await early.next() == 1)
        flow.emit(1)
        flow.emit(2)
        #expect(await early.next() == 2, "an equal value is skipped")
        var late = flow.makeAsyncIterator()
        #expect(await late.next() == 2, "a late subscriber starts with the current value")
        flow.finish()
        #expect(await late.next() == nil)
    }

    @Test func aSlowSubscriberSeesTheNewestValue() async {
        let flow = StateFlow(0)
        var iterator = flow.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        flow.emit(1)
        flow.emit(2)
        flow.emit(3)
        #expect(await iterator.next() == 3)
    }
}
