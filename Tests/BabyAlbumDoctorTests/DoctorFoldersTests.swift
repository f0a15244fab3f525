import AlbumDomain
import BabyAlbumDoctor
import FolderRepository
import Foundation
import PhotoCodec
import TestSupport
import Testing

/// `babyalbum doctor` checks every folder the slideshow would read, each real folder once,
/// and says the frame is black only when none of them (and no USB stick) has a photo.
@Suite("Doctor: every photo folder")
struct DoctorFoldersTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let jpeg = repository + "/Tests/PhotoCodecTests/Fixtures/photos/jpeg/s420.jpg"

    func options(_ folders: [String]) -> DoctorOptions {
        var options = DoctorOptions(
            photos: folders[0], output: .memory, exitButton: .default, limits: PhotoLimits(), headersOnly: false)
        options.extraPhotoFolders = Array(folders.dropFirst())
        return options
    }

    @Test func anEmptyFirstFolderAndAFullSecondOneAreNotBlack() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let empty = scratch.file("empty")
        let full = scratch.file("full")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.jpeg, toPath: full + "/a.jpg")
        try FileManager.default.copyItem(atPath: Self.jpeg, toPath: full + "/b.jpg")
        let section = DoctorProbes.photos(options([empty, full]))
        #expect(section.problem == nil, "\(section)")
        #expect(section.valid == 2)
        #expect(section.folder.contains("empty") && section.folder.contains("full"))
        // Positive control: the empty folder alone is black.
        #expect(DoctorProbes.photos(options([empty])).problem?.contains("stay black") == true)
    }

    @Test func theSameFolderSpelledTwiceIsCountedOnceAndNamed() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try FileManager.default.copyItem(atPath: Self.jpeg, toPath: scratch.file("a.jpg"))
        let section = DoctorProbes.photos(options([scratch.path, scratch.path + "/.", scratch.path + "/"]))
        #expect(section.valid == 1)
        #expect(section.warnings.filter { $0.contains("is the same folder as") }.count == 2, "\(section.warnings)")
    }

    @Test func aMissingFolderBesideAGoodOneIsAWarningAndTwoMissingOnesAreTheProblem() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try FileManager.default.copyItem(atPath: Self.jpeg, toPath: scratch.file("a.jpg"))
        let section = DoctorProbes.photos(options(["/nonexistent/photos", scratch.path]))
        #expect(section.problem == nil)
        #expect(section.warnings.contains { $0.contains("/nonexistent/photos") }, "\(section.warnings)")
        let none = DoctorProbes.photos(options(["/nonexistent/a", "/nonexistent/b"]))
        #expect(none.problem?.contains("/nonexistent/a") == true && none.problem?.contains("/nonexistent/b") == true)
    }

    @Test func photosOnAStickKeepTheFrameFromBeingBlack() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        var withStick = options([scratch.path])
        withStick.stickPhotos = 3
        let section = DoctorProbes.photos(withStick)
        #expect(section.problem == nil)
        #expect(section.warnings.contains { $0.contains("3 photo(s) on USB sticks") }, "\(section.warnings)")
    }

    /// HEIC is decoded (in the decode worker, issue 26), so a HEIC named `.jpg` is shown as what
    /// it is, and doctor says so.
    @Test func aHEICFileNamedAsJPEGIsSaidToBeShownAsHEIC() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        // An ISO-BMFF 'ftyp' box of brand heic: recognised by content.
        let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        try Data(heic + [UInt8](repeating: 0, count: 64)).write(to: URL(fileURLWithPath: scratch.file("x.jpg")))
        try FileManager.default.copyItem(atPath: Self.jpeg, toPath: scratch.file("a.jpg"))
        let section = DoctorProbes.photos(options([scratch.path]))
        let reason = try #require(section.mismatched.first?.reason)
        #expect(reason == "a HEIC file named as JPEG: shown as HEIC", "\(reason)")
    }
}
