import AlbumDomain
import Testing

@testable import PhotoCodec

/// A TIFF block made byte by byte, in either byte order: IFD0 with the Exif IFD pointer, the
/// Exif IFD with DateTimeOriginal and OffsetTimeOriginal, then their text.
struct TIFFBlock {
    var littleEndian = true
    var date: String? = "2025:03:12 08:15:30"
    var offset: String? = "+01:00"
    /// Replaces the Exif IFD pointer's value (a loop, an offset out of range).
    var exifPointer: UInt32?
    /// Replaces DateTimeOriginal's count.
    var dateCount: UInt32?
    /// Replaces DateTimeOriginal's type (2 is ASCII).
    var dateType: UInt16 = 2

    func u16(_ value: UInt16) -> [UInt8] {
        littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xFF) }
        return littleEndian ? bytes : bytes.reversed()
    }

    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) -> [UInt8] {
        u16(tag) + u16(type) + u32(count) + u32(value)
    }

    var bytes: [UInt8] {
        let texts = [date, offset].compactMap { $0 }.map { Array($0.utf8) + [0] }
        let exifIFD: UInt32 = 8 + 18
        let dataStart = exifIFD + 2 + UInt32(texts.count) * 12 + 4
        var block = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
        block += u16(1) + entry(0x8769, 4, 1, exifPointer ?? exifIFD) + u32(0)
        block += u16(UInt16(texts.count))
        var at = dataStart
        if let date {
            block += entry(0x9003, dateType, dateCount ?? UInt32(date.utf8.count + 1), at)
            at += UInt32(date.utf8.count + 1)
        }
        if let offset { block += entry(0x9011, 2, UInt32(offset.utf8.count + 1), at) }
        block += u32(0)
        return block + texts.flatMap { $0 }
    }
}

/// The EXIF date parser on bytes: both byte orders, the "Exif\0\0" prefix, dates that cannot
/// be right, and hostile structures (loops, offsets and counts out of range, every truncation).
@Suite struct ExifDateTests {
    @Test(arguments: [true, false])
    func readsTheDateAndItsOffsetInEitherByteOrder(littleEndian: Bool) throws {
        let result = ExifDateParser.captureDate(TIFFBlock(littleEndian: littleEndian).bytes)
        let day = try #require(CivilDate(year: 2025, month: 3, day: 12))
        #expect(
            result == .found(CaptureDate(date: day, hour: 8, minute: 15, second: 30, offsetMinutes: 60, source: .exif)))
    }

    @Test func readsAfterTheExifPrefixAndWithoutAnOffset() throws {
        let block = Array("Exif\0\0".utf8) + TIFFBlock(littleEndian: false, offset: nil).bytes
        guard case .found(let date) = ExifDateParser.captureDate(block) else {
            Issue.record("no date found")
            return
        }
        #expect(date.date == CivilDate(year: 2025, month: 3, day: 12))
        #expect(date.offsetMinutes == nil)
    }

    @Test(arguments: [
        ("0000:00:00 00:00:00", false), ("9999:12:31 23:59:59", false), ("2024:02:31 10:00:00", false),
        ("2023:02:29 10:00:00", false), ("2024:13:01 10:00:00", false), ("2024:02:29 24:00:00", false),
        ("    :  :     :  :  ", false), ("2024:02:2x 10:00:00", false), ("2024", false), ("", false),
        ("2024:02:29 12:00:00", true), ("2025-03-12 08:00:00", true), ("1999:12:31 23:59:60", true),
    ])
    func datesThatCannotBeRightAreUnusable(_ text: String, usable: Bool) {
        let result = ExifDateParser.captureDate(TIFFBlock(date: text).bytes)
        if usable {
            #expect(isFound(result), "\(text): \(result)")
        } else {
            #expect(isUnusable(result), "\(text): \(result)")
        }
    }

    @Test(arguments: [("+02:00", 120), ("-05:30", -330), ("+00:00", 0), ("+99:00", nil), ("02:00", nil), ("+2", nil)])
    func offsets(_ text: String, minutes: Int?) {
        guard case .found(let date) = ExifDateParser.captureDate(TIFFBlock(offset: text).bytes) else {
            Issue.record("no date")
            return
        }
        #expect(date.offsetMinutes == minutes, "\(text)")
    }

    @Test func blocksWithoutADateAreAbsent() {
        #expect(ExifDateParser.captureDate([]) == .absent)
        #expect(ExifDateParser.captureDate(Array("Exif\0\0".utf8)) == .absent)
        #expect(ExifDateParser.captureDate(Array("JFIF and more bytes".utf8)) == .absent)
        #expect(ExifDateParser.captureDate(TIFFBlock(date: nil, offset: nil).bytes) == .absent)
    }

    @Test func hostileStructuresAreRefusedWithoutReadingOutsideTheBlock() {
        // The Exif IFD pointer back to IFD0 (a loop), past the end, and at the very end.
        #expect(ExifDateParser.captureDate(TIFFBlock(exifPointer: 8).bytes) == .absent)
        #expect(ExifDateParser.captureDate(TIFFBlock(exifPointer: 0xFFFF_FFF0).bytes) == .absent)
        #expect(ExifDateParser.captureDate(TIFFBlock(exifPointer: 4).bytes) == .absent)
        let length = UInt32(TIFFBlock().bytes.count)
        #expect(ExifDateParser.captureDate(TIFFBlock(exifPointer: length - 1).bytes) == .absent)
        // A date whose count runs past the end, or is 4 GB, or whose type is not text.
        #expect(isUnusable(TIFFBlock(dateCount: 200).bytes))
        #expect(isUnusable(TIFFBlock(dateCount: 0xFFFF_FFFF).bytes))
        #expect(isUnusable(TIFFBlock(dateType: 4).bytes))
        // An IFD claiming 65535 entries in a short block.
        var block = TIFFBlock().bytes
        block[8] = 0xFF
        block[9] = 0xFF
        _ = ExifDateParser.captureDate(block)
    }

    @Test func everyTruncationAndEveryByteChangeIsSafe() {
        for littleEndian in [true, false] {
            let block = TIFFBlock(littleEndian: littleEndian).bytes
            // The offset's 7 bytes ("+01:00" and a zero) come last: a cut there keeps the date alone.
            let dateEnd = block.count - 7
            for length in 0..<block.count {
                let result = ExifDateParser.captureDate(Array(block.prefix(length)))
                if length < dateEnd {
                    #expect(!isFound(result), "cut to \(length) bytes")
                } else if case .found(let date) = result {
                    #expect(date.offsetMinutes == nil, "cut to \(length) bytes")
                } else {
                    Issue.record("cut to \(length) bytes, in the offset only: \(result)")
                }
            }
            for index in block.indices {
                for value: UInt8 in [0, 0x7F, 0x80, 0xFF] {
                    var changed = block
                    changed[index] = value
                    _ = ExifDateParser.captureDate(changed)
                }
            }
        }
    }

    /// 20,000 seeded mutants (bytes changed, inserted, cut) of blocks in both byte orders: the
    /// parser returns for each, and any date it finds is a real day in the plausible years.
    @Test func seededMutantsNeverCrashAndNeverGiveAnImpossibleDate() {
        var random = SplitMix64(seed: 28)
        let blocks = [TIFFBlock().bytes, TIFFBlock(littleEndian: false).bytes]
        for round in 0..<20_000 {
            var block = blocks[round % 2]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<block.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: block[index] = UInt8.random(in: 0...255, using: &random)
                case 1: block.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: block.removeSubrange(index..<min(block.count, index + 3))
                }
                if block.isEmpty { break }
            }
            if case .found(let date) = ExifDateParser.captureDate(block) {
                #expect(CaptureDate.plausibleYears.contains(date.date.year), "round \(round)")
                #expect(date.hour < 24 && date.minute < 60 && date.second <= 60, "round \(round)")
            }
        }
    }

    private func isUnusable(_ block: [UInt8]) -> Bool { isUnusable(ExifDateParser.captureDate(block)) }

    private func isUnusable(_ result: ExifDateResult) -> Bool {
        if case .unusable = result { return true }
        return false
    }

    private func isFound(_ result: ExifDateResult) -> Bool {
        if case .found = result { return true }
        return false
    }
}
