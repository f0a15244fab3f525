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

    /// Starts `babyalbum arguments`. Unless `fastIntervals` is false, the test-only
    /// `BABYALBUM_TEST_FAST_INTERVAL=1` lets `--interval` go below one second.
    init(_ arguments: [String], fastIntervals: Bool = true) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BABYALBUM_TEST_FAST_INTERVAL"] = fastIntervals ? "1" : nil
        process.environment = environment
        process.standardError = standardError
        process.standardOutput = FileHandle.nullDevice
        process.currentDirectoryURL = URL(fileURLWithPath: Self.repository)
        let data = errorData
        standardError.fileHandleForReading.readabilityHandler = { handle in data.append(handle.availableData) }
        try process.run()
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
        standardError.fileHandleForReading.readabilityHandler = nil
        errorData.append(standardError.fileHandleForReading.readDataToEndOfFile())
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
