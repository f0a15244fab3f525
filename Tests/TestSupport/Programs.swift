import Foundation

/// A program that a test ran ended with another status than 0.
public struct ProgramFailed: Error, CustomStringConvertible {
    /// The program and its arguments.
    public let arguments: [String]
    /// Its exit status.
    public let status: Int32

    public var description: String { "\(arguments) exited with \(status)" }
}

/// Runs `arguments` (the program's absolute path first), its standard output discarded, and
/// throws ``ProgramFailed`` unless it exits with 0. Shared by every test target that makes its
/// fixtures with Python, heif-enc, cwebp or jpgicc.
public func runProgram(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ProgramFailed(arguments: arguments, status: process.terminationStatus)
    }
}

/// The XRGB pixels of a file of raw 8-bit RGB samples (as Pillow's `tobytes()` writes them), `size`
/// pixels: the reference decodes of the tests, made by other programs.
public func rgbFilePixels(_ path: String, size: (width: Int, height: Int)) throws -> [UInt32] {
    let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let count = size.width * size.height
    guard rgb.count >= 3 * count else { throw ProgramFailed(arguments: [path], status: -1) }
    var pixels = [UInt32](repeating: 0, count: count)
    for index in 0..<count {
        let red = UInt32(rgb[3 * index]) << 16
        let green = UInt32(rgb[3 * index + 1]) << 8
        pixels[index] = red | green | UInt32(rgb[3 * index + 2])
    }
    return pixels
}
