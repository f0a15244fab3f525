import AlbumDomain
import DRMDisplay
import Testing

@Suite struct FrameBlendTests {
    let size = FrameSize(width: 5, height: 3)

    func frame(_ pixel: (Int) -> UInt32) -> Frame {
        Frame(size: size, pixels: (0..<size.pixelCount).map(pixel))
    }

    func blend(_ from: Frame, _ to: Frame, weight: Int, pitch: Int = 5 * 4 + 12) -> [UInt32] {
        var buffer = [UInt8](repeating: 0xAB, count: pitch * size.height)
        buffer.withUnsafeMutableBytes {
            FrameBlend.write(from: from, to: to, weight: weight, into: $0.baseAddress!, pitch: pitch)
        }
        return (0..<size.height).flatMap { y in
            (0..<size.width).map { x in
                let at = y * pitch + x * 4
                return UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16
                    | UInt32(buffer[at + 3]) << 24
            }
        }
    }

    @Test func theEndsAreTheTwoFramesExactly() {
        let from = frame { UInt32($0 * 0x0102_0304 & 0x00FF_FFFF) }
        let to = frame { UInt32(0x00FF_FFFF - $0 * 0x0001_0203) }
        #expect(blend(from, to, weight: 0) == from.pixels)
        #expect(blend(from, to, weight: FrameBlend.fullWeight) == to.pixels)
    }

    @Test func theMixIsLinearPerChannelAndNeverBrighterThanBoth() {
        let from = frame { _ in 0x0010_80F0 }
        let to = frame { _ in 0x00F0_8010 }
        let half = blend(from, to, weight: 128)
        #expect(half.allSatisfy { $0 == 0x0080_8080 }, "\(String(half[0], radix: 16))")
        for weight in stride(from: 0, through: 256, by: 16) {
            let mixed = blend(from, to, weight: weight)[0]
            for shift in [0, 8, 16] as [UInt32] {
                let channel = mixed >> shift & 0xFF
                let a = from.pixels[0] >> shift & 0xFF
                let b = to.pixels[0] >> shift & 0xFF
                #expect(channel >= min(a, b) && channel <= max(a, b), "weight \(weight), channel at \(shift)")
                // The ideal mix, as real numbers (not blend.c's integer formula): the blend may
                // only drop the fraction, so it is within one level below it.
                let ideal = Double(a) + (Double(b) - Double(a)) * Double(weight) / 256
                #expect(Double(channel) <= ideal + 1e-9 && Double(channel) > ideal - 1, "weight \(weight): \(ideal)")
            }
        }
    }

    @Test func thePitchPaddingIsLeftAlone() {
        let pitch = 5 * 4 + 12
        var buffer = [UInt8](repeating: 0xAB, count: pitch * size.height)
        let from = frame { _ in 0 }
        let to = frame { _ in 0x00FF_FFFF }
        buffer.withUnsafeMutableBytes {
            FrameBlend.write(from: from, to: to, weight: 64, into: $0.baseAddress!, pitch: pitch)
        }
        for y in 0..<size.height {
            #expect(buffer[(y * pitch + 20)..<(y * pitch + pitch)].allSatisfy { $0 == 0xAB })
        }
    }

    @Test func theWeightFollowsTheClockAndEndsOnTheNewFrame() {
        let duration = Duration.seconds(2)
        #expect(FrameBlend.weight(elapsed: .zero, of: duration) == 0)
        #expect(FrameBlend.weight(elapsed: .seconds(1), of: duration) == 128)
        #expect(FrameBlend.weight(elapsed: .milliseconds(1999), of: duration) < FrameBlend.fullWeight)
        #expect(FrameBlend.weight(elapsed: .seconds(2), of: duration) == FrameBlend.fullWeight)
        #expect(
            FrameBlend.weight(elapsed: .seconds(9), of: duration) == FrameBlend.fullWeight, "a late frame ends the fade"
        )
    }
}
