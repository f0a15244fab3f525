import LinuxInterfaces
import Testing

@Suite struct DurationMillisecondsTests {
    @Test func halfASecondIsFiveHundredMilliseconds() {
        #expect(Duration.milliseconds(500).roundedUpMilliseconds == 500)
    }

    @Test func partsOfAMillisecondRoundUp() {
        #expect(Duration.nanoseconds(1).roundedUpMilliseconds == 1)
        #expect((Duration.seconds(2) + .microseconds(100)).roundedUpMilliseconds == 2001)
        #expect(Duration.seconds(20).roundedUpMilliseconds == 20_000)
    }

    @Test func noTimeAndTheFarFutureAreClamped() {
        #expect(Duration.zero.roundedUpMilliseconds == 0)
        #expect(Duration.seconds(-1).roundedUpMilliseconds == 0)
        #expect(Duration.seconds(Int64.max / 2).roundedUpMilliseconds == Int32.max)
    }
}
