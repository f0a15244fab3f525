import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// Broken input, limits, scaling, and the two decoding paths.
@Suite struct DecoderTests {
    @Test func brokenFilesAreErrorsNamingTheProblem() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try scratch.write([], to: "empty.png")
        let text = try scratch.write(Array("hello, not a photo".utf8), to: "text.png")
        let good = scratch.path("good.png")
        try PNGEncoder.write(makeFrame(64, 48) { x, y in rgb(UInt32(x * 4), UInt32(y * 5), 7) }, to: good)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let truncated = try scratch.write(Array(bytes.prefix(bytes.count / 2)), to: "truncated.png")
        let missing = scratch.path("missing.png")

        #expect(throws: PhotoError(kind: .unrecognized, reason: "empty file", path: empty)) {
            try PNGDecoder.decode(empty)
        }
        #expect(throws: PhotoError(kind: .unrecognized, reason: "not a PNG file (bad signature)", path: text)) {
            try PNGDecoder.decode(text)
        }
        let cut = try #require(throws: PhotoError.self) { try PNGDecoder.decode(truncated) }
        #expect(cut.kind == .corrupt && !cut.reason.isEmpty, "\(cut)")
        let absent = try #require(throws: PhotoError.self) { try PNGDecoder.decode(missing) }
        #expect(absent.kind == .io && absent.reason.contains("No such file"), "\(absent)")
    }

    @Test func writtenFramesReadBackExactly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let frame = makeFrame(37, 23) { x, y in rgb(UInt32(x * 7 % 256), UInt32(y * 11 % 256), UInt32((x ^ y) & 0xFF)) }
        try PNGEncoder.write(frame, to: scratch.path("frame.png"))
        #expect(try PNGDecoder.decode(scratch.path("frame.png")).pixels == frame.pixels)
    }

    @Test func photosOverTheMegapixelLimitAreRefusedFromTheirHeader() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let huge = try scratch.write(claimedSizePNG(width: 100_000, height: 100_000), to: "huge.png")
        let error = try #require(throws: PhotoError.self) {
            try PNGDecoder.decode(huge, to: FrameSize(width: 64, height: 36), scale: .fill)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("10000.0 megapixels"), "\(error.reason)")
        let limited = try #require(throws: PhotoError.self) {
            try PNGDecoder.header(
                of: claimedSizePNG(width: 4000, height: 3000).withFile(in: scratch),
                limits: PhotoLimits(maxMegapixels: 10))
        }
        #expect(limited.kind == .tooLarge)
    }

    @Test func downscalingAveragesEveryCoveredPixel() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A fine black and white checkerboard averages to mid grey, never to black or white.
        try PNGEncoder.write(
            makeFrame(64, 64) { x, y in (x + y) % 2 == 0 ? 0xFFFFFF : 0 }, to: scratch.path("checker.png"))
        let frame = try PNGDecoder.decode(scratch.path("checker.png"), to: FrameSize(width: 8, height: 8), scale: .fill)
        for pixel in frame.pixels {
            let (r, g, b) = channels(pixel)
            #expect((127...128).contains(r) && r == g && g == b)
        }
    }

    @Test func fillCropsTheCentreAndFitAddsBlackBars() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 300x100: red, green, blue thirds.
        let thirds = makeFrame(300, 100) { x, _ in x < 100 ? rgb(255, 0, 0) : x < 200 ? rgb(0, 255, 0) : rgb(0, 0, 255)
        }
        try PNGEncoder.write(thirds, to: scratch.path("thirds.png"))
        let filled = try PNGDecoder.decode(
            scratch.path("thirds.png"), to: FrameSize(width: 50, height: 50), scale: .fill)
        #expect(Set(filled.pixels) == [rgb(0, 255, 0)], "a square fill shows only the middle third")

        let fitted = try PNGDecoder.decode(
            scratch.path("thirds.png"), to: FrameSize(width: 60, height: 60), scale: .fit)
        #expect(fitted.pixels[0] == 0 && fitted.pixels[59 * 60] == 0, "bars above and below are black")
        #expect(fitted.pixels[30 * 60 + 5] == rgb(255, 0, 0))
        #expect(fitted.pixels[30 * 60 + 30] == rgb(0, 255, 0))
        #expect(fitted.pixels[30 * 60 + 55] == rgb(0, 0, 255))
        let barRows = (0..<60).filter { y in fitted.pixels[(y * 60)..<(y * 60 + 60)].allSatisfy { $0 == 0 } }
        #expect(barRows.count == 40, "a 3:1 photo fits a square in 20 rows")
    }

    @Test func upscalingIsBilinear() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try PNGEncoder.write(makeFrame(2, 1) { x, _ in x == 0 ? 0 : rgb(200, 200, 200) }, to: scratch.path("two.png"))
        let frame = try PNGDecoder.decode(scratch.path("two.png"), to: FrameSize(width: 8, height: 4), scale: .fill)
        let row = frame.pixels[0..<8].map { channels($0).0 }
        #expect(row.first == 0 && row.last == 200)
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "a smooth ramp: \(row)")
        #expect(Set(row).count >= 5, "in-between values, not nearest neighbour: \(row)")
    }

    @Test(arguments: [ScaleMode.fill, .fit])
    func streamingAndOrderFreeDecodingAgreeWithinOneLevel(scale: ScaleMode) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try PNGEncoder.write(rampPhoto, to: scratch.path("photo.png"))
        for size in comparisonSizes {
            let streamed = try PNGDecoder.decode(scratch.path("photo.png"), to: size, scale: scale)
            let whole = try PNGDecoder.decode(scratch.path("photo.png"), to: size, scale: scale, wholeImage: true)
            #expect(largestDifference(streamed, whole) <= 1, "\(size) \(scale)")
        }
    }
}

extension Array where Element == UInt8 {
    func withFile(in scratch: Scratch) throws -> String {
        try scratch.write(self, to: UUID().uuidString + ".png")
    }
}
