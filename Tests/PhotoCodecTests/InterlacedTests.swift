import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// Adam7 photos are added pass by pass straight into the frame: they cost frame-size memory, have
/// no separate budget, and match the same photo stored plainly.
@Suite struct InterlacedTests {
    @Test(arguments: [ScaleMode.fill, .fit])
    func anInterlacedPhotoMatchesThePlainOneAtEverySize(scale: ScaleMode) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try PNGEncoder.write(rampPhoto, to: scratch.path("plain.png"))
        try PNGEncoder.write(rampPhoto, to: scratch.path("adam7.png"), interlaced: true)
        #expect(try PNGDecoder.header(of: scratch.path("adam7.png")).isInterlaced)
        for size in comparisonSizes {
            let plain = try PNGDecoder.decode(scratch.path("plain.png"), to: size, scale: scale)
            let interlaced = try PNGDecoder.decode(scratch.path("adam7.png"), to: size, scale: scale)
            #expect(largestDifference(plain, interlaced) <= 1, "\(size) \(scale)")
        }
    }

    @Test func aFortyEightMegapixelInterlacedPhotoIsDecoded() throws {
        // Today's limit is the megapixel limit alone: no separate whole-image budget for Adam7.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (width, height) = (8000, 6000)
        let ihdr = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 1]
        let idat = zlibZeros(count: rawBytes(width: width, height: height, interlaced: true))
        let path = try scratch.write(
            pngSignature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []), to: "big.png")
        let frame = try PNGDecoder.decode(path, to: FrameSize(width: 320, height: 180), scale: .fill)
        #expect(frame.pixels.allSatisfy { $0 == 0 })
    }
}
