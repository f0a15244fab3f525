import AlbumDomain
import DRMDisplay
import Testing

/// A scan-out buffer stand-in: `pitch` bytes per row, pre-filled with a marker byte so that
/// the tests see exactly which bytes were written.
private final class FakeScanout {
    static let marker: UInt8 = 0xAB
    let screen: FrameSize
    let pitch: Int
    let bytes: UnsafeMutableRawBufferPointer

    init(screen: FrameSize, padding: Int) {
        self.screen = screen
        pitch = screen.width * 4 + padding
        bytes = .allocate(byteCount: pitch * screen.height, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: Self.marker)
    }

    deinit { bytes.deallocate() }

    func pixel(_ x: Int, _ y: Int) -> UInt32 { bytes.load(fromByteOffset: y * pitch + x * 4, as: UInt32.self) }
    func padding(row y: Int) -> [UInt8] { Array(bytes[(y * pitch + screen.width * 4)..<((y + 1) * pitch)]) }
}

private func numbered(_ size: FrameSize) -> Frame {
    Frame(size: size, pixels: (0..<size.pixelCount).map { UInt32($0) | 0x0100_0000 })
}

@Suite struct FrameBlitTests {
    @Test func copiesAFrameOfTheScreenSizeRowByRowUsingThePitch() {
        let screen = FrameSize(width: 5, height: 3)
        let buffer = FakeScanout(screen: screen, padding: 12)
        let frame = numbered(screen)
        FrameBlit.write(frame, to: buffer.bytes.baseAddress!, pitch: buffer.pitch, screen: screen)
        for y in 0..<3 {
            for x in 0..<5 { #expect(buffer.pixel(x, y) == frame.pixels[y * 5 + x]) }
            #expect(buffer.padding(row: y) == [UInt8](repeating: FakeScanout.marker, count: 12))
        }
    }

    @Test func centresASmallerFrameOnBlack() {
        let screen = FrameSize(width: 6, height: 4)
        let buffer = FakeScanout(screen: screen, padding: 8)
        let frame = numbered(FrameSize(width: 2, height: 2))
        FrameBlit.write(frame, to: buffer.bytes.baseAddress!, pitch: buffer.pitch, screen: screen)
        for y in 0..<4 {
            for x in 0..<6 {
                let inside = (2..<4).contains(x) && (1..<3).contains(y)
                let expected = inside ? frame.pixels[(y - 1) * 2 + (x - 2)] : 0
                #expect(buffer.pixel(x, y) == expected, "pixel \(x),\(y)")
            }
            #expect(buffer.padding(row: y).allSatisfy { $0 == FakeScanout.marker })
        }
    }

    @Test func cropsALargerFrameAroundItsCentre() {
        let screen = FrameSize(width: 2, height: 2)
        let buffer = FakeScanout(screen: screen, padding: 0)
        let frame = numbered(FrameSize(width: 4, height: 6))
        FrameBlit.write(frame, to: buffer.bytes.baseAddress!, pitch: buffer.pitch, screen: screen)
        let place = FramePlacement(frame: frame.size, screen: screen)
        #expect([place.sourceX, place.sourceY, place.destinationX, place.destinationY] == [1, 2, 0, 0])
        #expect([place.width, place.height] == [2, 2])
        #expect(buffer.pixel(0, 0) == frame.pixels[2 * 4 + 1])
        #expect(buffer.pixel(1, 1) == frame.pixels[3 * 4 + 2])
    }

    @Test func noFrameMeansBlack() {
        let screen = FrameSize(width: 3, height: 2)
        let buffer = FakeScanout(screen: screen, padding: 4)
        FrameBlit.write(nil, to: buffer.bytes.baseAddress!, pitch: buffer.pitch, screen: screen)
        for y in 0..<2 {
            for x in 0..<3 { #expect(buffer.pixel(x, y) == 0) }
            #expect(buffer.padding(row: y).allSatisfy { $0 == FakeScanout.marker })
        }
    }
}
