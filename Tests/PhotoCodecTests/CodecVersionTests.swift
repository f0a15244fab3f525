import Foundation
import PhotoCodec
import PhotoDecoding
import Testing

/// The codec layer's entry point names the library that decodes each format and its version;
/// checked against the `Version:` of the library's pkg-config file, which the build compiled with
/// (under qemu-user, the arm64 sysroot's: `QEMU_LD_PREFIX`).
@Suite struct CodecVersionTests {
    #if arch(arm64)
        static let triplet = "aarch64-linux-gnu"
    #else
        static let triplet = "x86_64-linux-gnu"
    #endif

    /// The `Version:` line of `NAME.pc`, from the first pkg-config folder that has it.
    private func packageVersion(_ name: String) throws -> String {
        let roots = [ProcessInfo.processInfo.environment["QEMU_LD_PREFIX"], ""].compactMap { $0 }
        let candidates = roots.flatMap { root in
            ["/usr/lib/\(Self.triplet)/pkgconfig", "/usr/lib/pkgconfig", "/usr/share/pkgconfig"].map {
                "\(root)\($0)/\(name).pc"
            }
        }
        let file = try #require(
            candidates.first { FileManager.default.fileExists(atPath: $0) }, "no \(name).pc in \(candidates)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Version:") }, "\(file)")
        return line.dropFirst("Version:".count).trimmingCharacters(in: .whitespaces)
    }

    @Test(
        "Each format's library and version, as its pkg-config file has it",
        arguments: [
            (PhotoFormat.png, "libpng", "libpng"), (.jpeg, "libjpeg-turbo", "libjpeg"), (.webp, "libwebp", "libwebp"),
            (.heic, "libheif", "libheif"), (.avif, "libheif", "libheif"),
        ])
    func versions(format: PhotoFormat, library: String, package: String) throws {
        let version = try packageVersion(package)
        #expect(version.first?.isNumber == true, "\(package).pc: '\(version)'")
        #expect(PhotoDecoder.codecVersion(of: format) == "\(library) \(version)")
    }
}
