import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

/// The codec layer's entry point names the library that decodes each format and its version;
/// checked against pkg-config's word for the library the build compiled and linked with.
@Suite struct CodecVersionTests {
    /// `pkg-config --modversion NAME`.
    private func packageVersion(_ name: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pkg-config")
        process.arguments = ["--modversion", name]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "Each format's library and version, as pkg-config has it",
        arguments: [
            (PhotoFormat.png, "libpng", "libpng"), (.jpeg, "libjpeg-turbo", "libjpeg"), (.webp, "libwebp", "libwebp"),
            (.heic, "libheif", "libheif"), (.avif, "libheif", "libheif"),
        ])
    func versions(format: PhotoFormat, library: String, package: String) throws {
        let version = try packageVersion(package)
        #expect(!version.isEmpty)
        #expect(PhotoDecoder.codecVersion(of: format) == "\(library) \(version)")
    }
}
