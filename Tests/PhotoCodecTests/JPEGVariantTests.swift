import AlbumDomain
import PhotoCodec
import PhotoDecoding
import Testing

/// Every JPEG variant a camera or an editor writes, against djpeg's pixels (Pillow's for CMYK and
/// YCCK, which djpeg does not turn into RGB).
@Suite struct JPEGVariantTests {
    /// At full size BabyAlbum runs libjpeg-turbo exactly as djpeg does (islow IDCT, fancy
    /// upsampling) and the scaler copies pixels unchanged, so the frames match exactly; the
    /// stated tolerance is 1 for rounding in the CMYK conversion.
    static let tolerance = 1

    static let variants = [
        "gray", "s444", "s422", "s420", "s440", "restart", "arithmetic", "progressive", "multiscan", "cmyk", "ycck",
    ]

    @Test(arguments: variants)
    func everyVariantMatchesItsReferenceAtFullSize(name: String) throws {
        let decoded = try PhotoFixtures.decodeAtOwnSize(PhotoFixtures.jpeg(name))
        let reference = try PhotoFixtures.reference(name)
        #expect(decoded.header.format == .jpeg)
        #expect(decoded.header.dctScaleEighths == 8)
        let difference = largestDifference(decoded.frame, reference)
        #expect(difference <= Self.tolerance, "\(name): largest difference \(difference)")
    }

    @Test func progressiveAndMultiScanFilesAreWholeImageDecodes() throws {
        for name in ["progressive", "multiscan"] {
            let header = try PhotoDecoder.header(of: PhotoFixtures.jpeg(name))
            // 45x37 at 4:2:0: 6x5 luma blocks and 3x3 blocks per chroma component, 128 bytes each.
            #expect(header.wholeImageBytes > 0, "\(name)")
        }
        #expect(try PhotoDecoder.header(of: PhotoFixtures.jpeg("s420")).wholeImageBytes == 0)
    }

    @Test(arguments: [("half", 4), ("quarter", 2), ("eighth", 1)])
    func dctScaledDecodesMatchDjpegAtTheSameScale(label: String, eighths: Int) throws {
        for name in ["s420", "progressive"] {
            let decoded = try PhotoFixtures.decodeAtOwnSize(PhotoFixtures.jpeg(name), dctScaleEighths: eighths)
            let reference = try PhotoFixtures.reference("\(name)-\(label)")
            #expect(decoded.header.dctScaleEighths == eighths)
            let difference = largestDifference(decoded.frame, reference)
            #expect(difference <= Self.tolerance, "\(name) at \(eighths)/8: largest difference \(difference)")
        }
    }

    @Test(arguments: ["s420", "s422", "progressive", "arithmetic", "restart"])
    func rowsCroppedAwayAreSkippedAndTheRestAreDjpegsPixels(name: String) throws {
        // Filling 45x20 with the 45x37 photo keeps rows 8..<28 at full size: the rows above are
        // skipped (jpeg_skip_scanlines), the rows below skipped but for the last, which is read.
        let path = PhotoFixtures.jpeg(name)
        let frame = try PhotoDecoder.decode(path, to: FrameSize(width: 45, height: 20), scale: .fill)
        let reference = try PhotoFixtures.reference(name)
        let rows = Frame(size: FrameSize(width: 45, height: 20), pixels: Array(reference.pixels[(8 * 45)..<(28 * 45)]))
        let difference = largestDifference(frame, rows)
        #expect(difference <= Self.tolerance, "\(name): largest difference \(difference)")
    }

    @Test func theSmallestDCTScaleThatCoversTheScreenIsChosen() throws {
        let path = PhotoFixtures.jpeg("s420")  // 45x37
        func chosen(_ width: Int, _ height: Int, _ scale: ScaleMode = .fit) throws -> Int {
            let file = try PhotoFile(path: path)
            return try PhotoDecoder.decode(file, path: path, to: FrameSize(width: width, height: height), scale: scale)
                .header.dctScaleEighths
        }
        #expect(try chosen(90, 74) == 8, "enlarged: full size")
        #expect(try chosen(45, 37) == 8)
        #expect(try chosen(23, 19) == 4)
        #expect(try chosen(22, 18) == 4)
        #expect(try chosen(12, 10) == 2)
        #expect(try chosen(6, 5) == 1)
        #expect(try chosen(24, 20) == 8, "one column more than 1/2 gives: full size")
    }

    @Test func aScaledFrameIsCloseToTheFullSizeFrameScaledByTheSameScaler() throws {
        // The DCT-scaled path then the area average, against full-size decoding then the area
        // average: both average the same photo; they differ by the reduced IDCT's error, largest
        // at the sharp edges of the fixture's shapes.
        let path = PhotoFixtures.jpeg("s444")
        let size = FrameSize(width: 11, height: 9)
        let file = try PhotoFile(path: path)
        let scaled = try PhotoDecoder.decode(file, path: path, to: size, scale: .fill)
        let full = try PhotoDecoder.decode(file, path: path, to: size, scale: .fill, dctScaleEighths: 8)
        #expect(scaled.header.dctScaleEighths == 2)
        let difference = largestDifference(scaled.frame, full.frame)
        #expect(difference <= 24, "largest difference \(difference)")
    }

    @Test func aTwelveBitJPEGIsNamed() throws {
        let error = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(PhotoFixtures.jpeg("twelve-bit"), to: FrameSize(width: 8, height: 8), scale: .fill)
        }
        #expect(error.kind == .unsupportedFeature)
        #expect(error.reason == "12-bit JPEG is not supported")
    }
}
