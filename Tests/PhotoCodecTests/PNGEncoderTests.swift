import AlbumDomain
import Foundation
import FrameFinishing
import PhotoCodec
import Testing

/// The PNG writer takes a descriptor (the caller opens and closes the file): a failed write keeps
/// its reason, and a file that cannot be created says so.
@Suite struct PNGEncoderTests {
    let frame = makeFrame(64, 48) { x, y in rgb(UInt32(x * 4), UInt32(y * 5), 7) }

    @Test func aFullDiskIsAnInputOutputErrorWithItsReason() throws {
        // /dev/full takes the open and refuses every write with ENOSPC.
        let error = try #require(throws: PhotoError.self) { try PNGEncoder.write(frame, to: "/dev/full") }
        #expect(error.kind == .io)
        #expect(error.reason == "cannot write: No space left on device")
        #expect(error.path == "/dev/full")
    }

    @Test func aFolderThatIsMissingIsAnInputOutputErrorNamingTheCreate() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path("missing/frame.png")
        let error = try #require(throws: PhotoError.self) { try PNGEncoder.write(frame, to: path) }
        #expect(error.kind == .io)
        #expect(error.reason == "cannot create: No such file or directory")
        #expect(error.path == path)
    }
}
