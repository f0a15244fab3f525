import Foundation

/// Runs the real `babyalbum` executable built next to this test bundle.
struct BabyAlbumProcess {
    /// The repository root (for `Photos/` and the PngSuite fixtures).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static var executable: String {
        if let path = ProcessInfo.processInfo.environment["BABYALBUM_BIN"] { return path }
        // The test bundle lives in .build/<triple>/debug/ next to the executable.
        let products =
            Bundle.main.bundleURL.path.hasSuffix(".xctest")
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        for candidate in [products.appendingPathComponent("babyalbum").path, CommandLine.arguments[0]] {
            if FileManager.default.isExecutableFile(atPath: candidate), candidate.hasSuffix("babyalbum") {
                return candidate
            }
        }
        return products.appendingPathComponent("babyalbum").path
    }

    let process = Process()
    private let standardError = Pipe()
    private let errorData = LockedData()
    private let errorDrained = DispatchSemaphore(value: 0)

    /// Starts `babyalbum arguments`, with `extraEnvironment` added to this process's
    /// environment. Unless `fastIntervals` is false, the test-only
    /// `BABYALBUM_TEST_FAST_INTERVAL=1` lets `--interval` go below one second.
    init(_ arguments: [String], fastIntervals: Bool = true, extraEnvironment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(extraEnvironment) { $1 }
        environment["BABYALBUM_TEST_FAST_INTERVAL"] = fastIntervals ? "1" : nil
        process.environment = environment
        process.standardError = standardError
        process.standardOutput = FileHandle.nullDevice
        process.currentDirectoryURL = URL(fileURLWithPath: Self.repository)
        try process.run()
        Self.drain(standardError.fileHandleForReading, into: errorData, then: errorDrained)
    }

    /// Reads `handle` to its end on a thread of its own, which keeps it open until then, and
    /// signals `drained`. Not `readabilityHandler`: its dispatch read source, cancelled while the
    /// pipe closes and another test's descriptor takes the number, crashed this test process in
    /// libdispatch's event loop (SIGSEGV in `_dispatch_event_loop_drain`, `.ci/run` at f8211db).
    private static func drain(_ handle: FileHandle, into data: LockedData, then drained: DispatchSemaphore) {
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 {
                    data.append(Data(buffer[0..<count]))
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            drained.signal()
        }
        reader.start()
    }

    /// Waits for the process to end (at most `timeout` seconds) and returns its status and log.
    func finish(timeout: Double = 60) -> (status: Int32, log: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        // A process that no longer answers SIGTERM fails the test instead of hanging it.
        let killDeadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < killDeadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // Its log ends when every holder of the pipe has ended (its decode workers too).
        _ = errorDrained.wait(timeout: .now() + 10)
        return (process.terminationStatus, log)
    }

    /// What it logged so far.
    var log: String { String(decoding: errorData.data, as: UTF8.self) }

    /// Runs `babyalbum arguments` to the end.
    static func run(
        _ arguments: [String], timeout: Double = 60, fastIntervals: Bool = true
    ) throws -> (status: Int32, log: String) {
        try BabyAlbumProcess(arguments, fastIntervals: fastIntervals).finish(timeout: timeout)
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()
    var data: Data { lock.withLock { storage } }
    func append(_ more: Data) { lock.withLock { storage.append(more) } }
}
