import AlbumDomain
import DecodeSandbox
import Foundation
import PhotoCodec
import TestSupport

/// Where the tests find the worker, the fixtures and the HEIF tools.
enum WorkerSupport {
    /// The repository's `Tests` folder.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .path

    /// The slideshow's own worker: `babyalbum-decoder` beside `BABYALBUM_BIN`, else built next
    /// to the test runner (as the slideshow finds it: ``DecodeWorkerCommand/installed(besides:)``).
    static let command: DecodeWorkerCommand = {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return DecodeWorkerCommand.installed(besides: ProcessInfo.processInfo.environment["BABYALBUM_BIN"] ?? runner)
    }()

    /// A photo of the codec tests' fixtures.
    static func fixture(_ relative: String) -> String { testsFolder + "/PhotoCodecTests/Fixtures/" + relative }

    /// Decodes `path` in a worker of `pool`.
    static func decode(
        _ path: String, pool: DecodeWorkerPool, request: DecodeRequest, started: (Int32) -> Void = { _ in }
    ) throws(PhotoError) -> WorkerDecode {
        let file = try PhotoFile(path: path)
        return try pool.decode(file, path: path, request: request, started: started)
    }

    /// Runs `arguments` and fails unless it exits with 0.
    static func run(_ arguments: [String]) throws { try runProgram(arguments) }

    /// The frame of a raw RGB file of `size` (a reference decode made by Pillow).
    static func frame(rgbFile path: String, size: FrameSize) throws -> Frame {
        Frame(size: size, pixels: try rgbFilePixels(path, size: (size.width, size.height)))
    }

    /// The value of `field` in `/proc/PID/status` ("2" for "Seccomp:\t2").
    static func statusField(_ field: String, pid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.map { $0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// `field` of every thread of `pid` (`/proc/PID/task/TID/status`).
    static func threadFields(_ field: String, pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                return nil
            }
            let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            return line.map { $0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Whether `condition` holds within 30 s, asked every 10 ms: a bound for a loaded machine, not a
    /// timing (the arm64 VM under TCG, beside the test command's other guests, once took more than
    /// 2 s to confine a worker; a quiet machine takes milliseconds).
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            usleep(10_000)
        }
        return false
    }

    /// Whether the worker `pid` is inside its sandbox within ``waitUntil(_:)``'s bound.
    static func waitUntilConfined(_ pid: Int32) -> Bool {
        waitUntil { statusField("Seccomp", pid: pid) == "2" }
    }
}

/// The largest difference of any channel of any pixel; `Int.max` when the sizes differ.
func largestDifference(_ a: Frame, _ b: Frame) -> Int {
    guard a.size == b.size else { return Int.max }
    var worst = 0
    for (x, y) in zip(a.pixels, b.pixels) {
        for shift in [0, 8, 16] {
            worst = max(worst, abs(Int((x >> UInt32(shift)) & 0xFF) - Int((y >> UInt32(shift)) & 0xFF)))
        }
    }
    return worst
}

extension WorkerSupport {
    /// The soft limit named `name` in `/proc/PID/limits` ("unlimited", "10", ...).
    static func limit(_ name: String, pid: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(name) }
        return line.flatMap { $0.dropFirst(name.count).split(separator: " ").first.map(String.init) }
    }
}
