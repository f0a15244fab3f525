import AlbumDomain
import Foundation

/// The PngSuite conformance images copied into the test bundle, with their reference pixels.
enum PngSuite {
    static let folder = Bundle.module.resourcePath! + "/Fixtures/pngsuite"

    /// Names (without `.png`) of the valid images.
    static var validNames: [String] {
        names.filter { !$0.hasPrefix("x") }
    }

    /// Names of the deliberately corrupt images.
    static var corruptNames: [String] {
        names.filter { $0.hasPrefix("x") }
    }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/png")) ?? [])
            .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }

    static func path(_ name: String) -> String { folder + "/png/" + name + ".png" }

    /// The reference pixels composited over black: width, height and RGB bytes.
    static func reference(_ name: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/reference/" + name + ".rgb"))
        let bytes = [UInt8](data)
        func le32(_ offset: Int) -> Int {
            Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3])
                << 24
        }
        return (le32(0), le32(4), Array(bytes[8...]))
    }
}

/// Makes PNG files for tests: a temporary folder and frames written with libpng.
struct Scratch {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "babyalbum-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}

/// Pixel helpers.
func rgb(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { r << 16 | g << 8 | b }

func channels(_ pixel: UInt32) -> (Int, Int, Int) {
    (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
}

/// A 641x427 photo of ramps and a pattern, for checking two decoding paths against each other.
let rampPhoto = makeFrame(641, 427) { x, y in
    rgb(UInt32(x * 255 / 640), UInt32(y * 255 / 426), UInt32((x * y) % 251))
}

/// Frame sizes that shrink, enlarge and turn the aspect of ``rampPhoto``.
let comparisonSizes = [
    FrameSize(width: 320, height: 180), FrameSize(width: 1280, height: 800), FrameSize(width: 97, height: 203),
]

/// A frame filled by `color(x, y)`.
func makeFrame(_ width: Int, _ height: Int, _ color: (Int, Int) -> UInt32) -> Frame {
    var pixels: [UInt32] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
        for x in 0..<width { pixels.append(color(x, y)) }
    }
    return Frame(size: FrameSize(width: width, height: height), pixels: pixels)
}

/// CRC-32 (ISO-HDLC), as PNG chunks use it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// One PNG chunk with its length and CRC.
func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(UInt32(data.count)) + body + be32(crc32(body))
}

let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

/// A PNG whose header claims `width` x `height` RGB pixels, with a tiny IDAT.
func claimedSizePNG(width: UInt32, height: UInt32) -> [UInt8] {
    let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
    return pngSignature + chunk("IHDR", ihdr) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        + chunk("IEND", [])
}
