import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import PhotoDecoding
import Testing

/// Chunks that do not decide the pixels (text, ICC profiles, private chunks) are skipped unread,
/// whatever their size: the decoder reads the photo's own bytes, not the chunk's.
@Suite struct LargeChunkTests {
    static let chunkBytes = 16 << 20

    @Test(arguments: ["prIv", "tEXt", "zTXt", "iTXt", "iCCP"])
    func aLargeChunkBeforeTheImageDataIsSkippedUnread(type: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photo = scratch.path("photo.png")
        try PNGEncoder.write(makeFrame(48, 32) { x, y in rgb(UInt32(x * 5), UInt32(y * 7), 200) }, to: photo)
        let chunks = try pngChunks(of: photo)
        // IHDR, then a sparse 16 MiB chunk (zeros the file system need not store), then the rest.
        let hostile = scratch.path("hostile.png")
        let head = pngFile(Array(chunks.prefix(1))) + be32(UInt32(Self.chunkBytes)) + Array(type.utf8)
        let tail = be32(0) + pngFile(Array(chunks.dropFirst())).dropFirst(8)
        #expect(FileManager.default.createFile(atPath: hostile, contents: Data(head)))
        let handle = try #require(FileHandle(forWritingAtPath: hostile))
        try handle.seek(toOffset: UInt64(head.count + Self.chunkBytes))
        try handle.write(contentsOf: Data(tail))
        try handle.close()

        let size = FrameSize(width: 24, height: 16)
        let expected = try PNGDecoder.decode(photo, to: size, scale: .fill)
        let before = try bytesReadByThisThread()
        let frame = try PNGDecoder.decode(hostile, to: size, scale: .fill)
        let read = try bytesReadByThisThread() - before
        #expect(frame.pixels == expected.pixels, "the photo itself is intact")
        #expect(read < 1 << 20, "\(read) bytes read for a file of \(Self.chunkBytes >> 20) MiB")
    }

    @Test func anUnknownCriticalChunkIsAnError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photo = scratch.path("photo.png")
        try PNGEncoder.write(makeFrame(8, 8) { _, _ in rgb(1, 2, 3) }, to: photo)
        var chunks = try pngChunks(of: photo)
        chunks.insert(PNGChunk(type: "CRIT", data: [1, 2, 3]), at: 1)
        let hostile = try scratch.write(pngFile(chunks), to: "critical.png")
        let error = try #require(throws: PhotoError.self) { try PNGDecoder.decode(hostile) }
        #expect(error.kind == .corrupt && error.reason.contains("CRIT"), "\(error.reason)")
    }
}

/// Bytes this thread has read through read(2) and friends so far (`rchar` of /proc/thread-self/io).
func bytesReadByThisThread() throws -> Int {
    let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
    let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
    return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) ?? 0
}
