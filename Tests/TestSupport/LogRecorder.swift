import Logging
import Synchronization

/// A log handler that keeps the messages of level warning and above, for tests that check what
/// is logged.
public final class LogRecorder: LogHandler, Sendable {
    private let messages = Mutex<[String]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The messages of level warning and above, oldest first.
    public var warnings: [String] { messages.withLock { $0 } }

    /// A logger that writes to this recorder.
    public var logger: Logger { Logger(label: "test") { _ in self } }

    public var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    public var logLevel: Logger.Level {
        get { .debug }
        set {}
    }
    public var metadataProvider: Logger.MetadataProvider? {
        get { nil }
        set {}
    }
    public subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    public func log(event: LogEvent) {
        guard event.level >= .warning else { return }
        messages.withLock { $0.append(event.message.description) }
    }
}
