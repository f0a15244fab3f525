import AlbumDomain
import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Photos are recognised by their bytes, not their names (HEIC by its `ftyp` brands); files that are not regular files are refused without ever blocking.
@Suite struct PhotoFormatTests {
    /// A minimal ISO-BMFF file: an `ftyp` box with a major brand and compatible brands.
    static func isoMedia(major: String, compatible: [String]) -> [UInt8] {
        // Typed step by step: Swift 6.2 infers [Any] for the whole sum.
        let brands: [UInt8] = compatible.flatMap { Array($0.utf8) }
        let body: [UInt8] = Array(major.utf8) + [0, 0, 0, 0] + brands
        let header: [UInt8] = be32(UInt32(8 + body.count)) + Array("ftyp".utf8)
        return header + body + be32(8) + Array("meta".utf8)
    }

    @Test func formatsAreRecognisedByTheirBytes() throws {
        #expect(PhotoFormat.detect(prefix: pngSignature + [0, 0, 0, 13]) == .png)
        #expect(PhotoFormat.detect(prefix: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(PhotoFormat.detect(prefix: Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(PhotoFormat.detect(prefix: Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVEfmt ".utf8)) == nil)
        #expect(PhotoFormat.detect(prefix: Self.isoMedia(major: "heic", compatible: ["mif1", "heic"])) == .heic)
        #expect(PhotoFormat.detect(prefix: Self.isoMedia(major: "mif1", compatible: ["mif1", "heic"])) == .heic)
        #expect(PhotoFormat.detect(prefix: Self.isoMedia(major: "mif1", compatible: ["mif1", "miaf"])) == .heif)
        #expect(PhotoFormat.detect(prefix: Self.isoMedia(major: "avif", compatible: ["mif1", "miaf"])) == .avif)
        #expect(
            PhotoFormat.detect(prefix: Self.isoMedia(major: "isom", compatible: ["isom", "mp41"])) == nil,
            "an MP4 video")
        #expect(PhotoFormat.detect(prefix: Array("hello, world".utf8)) == nil)
        #expect(PhotoFormat.detect(prefix: []) == nil)
        #expect(try PhotoFormat.detect(path: PhotoFixtures.jpeg("s420")) == .jpeg)
        #expect(try PhotoFormat.detect(path: PhotoFixtures.webp("lossy")) == .webp)
        #expect(try PhotoFormat.detect(path: PngSuite.path("basn2c08")) == .png)
    }

    @Test func extensionsAreReadInAnyCase() {
        #expect(PhotoFormat(fileName: "IMG_0001.JPG") == .jpeg)
        #expect(PhotoFormat(fileName: "beach.jpeg") == .jpeg)
        #expect(PhotoFormat(fileName: "cake.WebP") == .webp)
        #expect(PhotoFormat(fileName: "IMG_0002.HEIC") == .heic)
        #expect(PhotoFormat(fileName: "snow.Png") == .png)
        #expect(PhotoFormat(fileName: "notes.txt") == nil)
        #expect(PhotoFormat(fileName: ".jpg") == nil)
        #expect(PhotoFormat(fileName: "jpg") == nil)
    }

    /// HEIC, HEIF and AVIF are decoded (libheif): a file with only an `ftyp` box is refused as
    /// broken, with libheif's reason.
    @Test(arguments: [("heic", PhotoFormat.heic), ("mif1", .heif), ("avif", .avif)])
    func aBrokenHeicHeifOrAvifIsRefusedWithLibheifsReason(brand: String, format: PhotoFormat) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let compatible = brand == "mif1" ? ["mif1", "miaf"] : [brand, "mif1"]
        let path = try scratch.write(Self.isoMedia(major: brand, compatible: compatible), to: "IMG_0003.HEIC")
        #expect(try PhotoFormat.detect(path: path) == format)
        #expect(format != .avif || PhotoDecoder.decodesAVIF)
        let error = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(path, to: FrameSize(width: 8, height: 8), scale: .fill)
        }
        #expect(error.kind == .corrupt)
        #expect(error.reason.hasPrefix("HEIF: "), "\(error.reason)")
    }

    @Test func anUppercaseNameAndAMisnamedFileAreShownByContent() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let jpeg = try scratch.write(PhotoFixtures.bytes(PhotoFixtures.jpeg("s420")), to: "IMG_0001.JPG")
        let png = try scratch.write(PhotoFixtures.bytes(PngSuite.path("basn2c08")), to: "really-a-png.jpg")
        let size = FrameSize(width: 16, height: 9)
        let upper = try PhotoDecoder.decode(jpeg, to: size, scale: .fill)
        #expect(upper.pixels.contains { $0 != 0 })
        #expect(try PhotoFormat.detect(path: png) == .png)
        #expect(PhotoFormat(fileName: "really-a-png.jpg") == .jpeg, "the name disagrees with the content")
        _ = try PhotoDecoder.decode(png, to: size, scale: .fill)
    }

    @Test func aPhotoWhoseNameIsNotUTF8IsOpenedByItsBytes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let name = Array((scratch.folder + "/IMG_").utf8) + [0xFF, 0xFE] + Array(".JPG".utf8)
        let bytes = try PhotoFixtures.bytes(PhotoFixtures.jpeg("s420"))
        let written = (name + [0]).withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { path -> Bool in
                guard let stream = fopen(path.baseAddress!, "wb") else { return false }
                defer { fclose(stream) }
                return fwrite(bytes, 1, bytes.count, stream) == bytes.count
            }
        }
        #expect(written)
        let file = try PhotoFile(pathBytes: name, displayPath: "IMG_\\xFF\\xFE.JPG")
        #expect(try PhotoFormat.detect(file: file, path: "IMG_\\xFF\\xFE.JPG") == .jpeg)
        let header = try PhotoDecoder.header(of: file, path: "IMG_\\xFF\\xFE.JPG")
        #expect(header.width == 45 && header.height == 37)
        let decoded = try PhotoDecoder.decode(file, path: "IMG", to: FrameSize(width: 9, height: 9), scale: .fill)
        #expect(decoded.frame.pixels.contains { $0 != 0 })
    }

    @Test func theFramePreparerDecodesEveryShownFormat() throws {
        let preparer = PhotoFramePreparer(scale: .fill)
        for path in [PhotoFixtures.jpeg("s420"), PhotoFixtures.webp("lossy"), PngSuite.path("basn2c08")] {
            let frame = try preparer.prepareFrame(for: Photo(id: PhotoID(path)), size: FrameSize(width: 16, height: 9))
            #expect(frame.size == FrameSize(width: 16, height: 9))
            #expect(frame.pixels.contains { $0 != 0 }, "\(path)")
        }
    }

    @Test func aFIFONamedLikeAPhotoIsRefusedWithoutBlocking() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fifo = scratch.path("photo.jpg")
        #expect(mkfifo(fifo, 0o644) == 0)
        // No writer ever opens the FIFO: a blocking open or read would hang this test forever.
        let error = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(fifo, to: FrameSize(width: 8, height: 8), scale: .fill)
        }
        #expect(error.kind == .notRegularFile)
        #expect(error.reason.contains("FIFO"), "\(error.reason)")
        #expect(throws: PhotoError.self) { try PhotoFormat.detect(path: fifo) }
        let folder = try #require(throws: PhotoError.self) { _ = try PhotoFile(path: scratch.folder) }
        #expect(folder.kind == .notRegularFile)
        _ = try PhotoDecoder.decode(PhotoFixtures.jpeg("s420"), to: FrameSize(width: 8, height: 8), scale: .fill)
    }

    @Test func emptyAndTextFilesAreNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = try scratch.write([], to: "empty.jpg")
        let text = try scratch.write(Array("not a photo".utf8), to: "notes.webp")
        let emptyError = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(empty, to: FrameSize(width: 4, height: 4), scale: .fill)
        }
        #expect(emptyError.reason == "empty file")
        let textError = try #require(throws: PhotoError.self) {
            try PhotoDecoder.decode(text, to: FrameSize(width: 4, height: 4), scale: .fill)
        }
        #expect(textError.kind == .unrecognized)
    }
}
