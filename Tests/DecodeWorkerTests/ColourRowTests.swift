import AlbumDomain
import CColour
import CColourFixtures
import PhotoCodec
import PhotoDecoding
import TestSupport
import Testing

/// A tagged JPEG's rows are converted while it decodes (on a second thread, a batch behind the
/// scaler): the frame must be the one the whole-frame conversion gives, with every row converted
/// once, whatever the scaler's path (box or bilinear), the bars and the turn of the panel.
@Suite struct ColourRowTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let size: FrameSize
        let scale: ScaleMode
        let rotation: ScreenRotation
        var testDescription: String { "\(size) \(scale) \(rotation)" }
    }

    static let cases = [
        Case(size: FrameSize(width: 64, height: 40), scale: .fill, rotation: .none),  // box, fewer rows than a batch
        Case(size: FrameSize(width: 1000, height: 700), scale: .fit, rotation: .none),  // bilinear, with bars
        Case(size: FrameSize(width: 700, height: 1000), scale: .fill, rotation: .clockwise90),  // a turned canvas
    ]

    @Test(arguments: [BACOLOUR_FIXTURE_DISPLAY_P3, BACOLOUR_FIXTURE_GRAY_18], cases)
    func rowsConvertedDuringTheDecodeMakeTheWholeFrameConversion(kind: bacolour_fixture, test: Case) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let profile = ColourTests.profile(kind)
        let options = kind == BACOLOUR_FIXTURE_GRAY_18 ? ["-grayscale"] : []
        let tagged = try ColourTests.jpeg(in: folder, name: "tagged", profile: profile, options: options)
        let plain = try ColourTests.jpeg(in: folder, name: "plain", profile: nil, options: options)

        let decoded = try PhotoDecoder.decode(tagged, to: test.size, scale: test.scale, rotation: test.rotation)
        var expected = try PhotoDecoder.decode(plain, to: test.size, scale: test.scale, rotation: test.rotation).pixels
        let untransformed = expected
        let outcome = expected.withUnsafeMutableBufferPointer {
            let (width, height) = (UInt32(test.size.width), UInt32(test.size.height))
            return bacolour_to_srgb(profile, profile.count, $0.baseAddress, width, height, width)
        }
        #expect(outcome.result == BACOLOUR_CONVERTED)
        #expect(decoded.pixels == expected)
        #expect(decoded.pixels != untransformed)
    }
}

/// The follower itself, on a second thread and, with one CPU, on the decoder's thread: every row
/// converted once, as the whole-frame conversion converts it.
@Suite struct ColourFollowerTests {
    @Test(arguments: [false, true])
    func everyFinishedRowIsConvertedOnce(oneCPU: Bool) throws {
        let profile = ColourTests.profile(BACOLOUR_FIXTURE_DISPLAY_P3)
        // 1080p less a few rows: many batches and a part batch at the end.
        let (width, height) = (1920, 1075)
        let source = (0..<(width * height)).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) & 0x00ff_ffff }
        var expected = source
        _ = expected.withUnsafeMutableBufferPointer {
            bacolour_to_srgb(profile, profile.count, $0.baseAddress, UInt32(width), UInt32(height), UInt32(width))
        }
        var outcome = bacolour_outcome()
        let rows = try #require(bacolour_rows_open(profile, profile.count, &outcome))
        defer { bacolour_rows_close(rows) }
        #expect(outcome.result == BACOLOUR_CONVERTED)
        var followed = source
        let status = followed.withUnsafeMutableBufferPointer {
            bacolour_fixture_follow(rows, $0.baseAddress, UInt32(width), UInt32(height), oneCPU ? 1 : 0)
        }
        #expect(status == 0)
        #expect(followed == expected)
        #expect(followed != source)
    }
}
