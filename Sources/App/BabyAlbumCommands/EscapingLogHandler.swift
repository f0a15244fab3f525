import BabyAlbumSettings
import LinuxInterfaces
import Logging

/// The frame's log handler: swift-log's standard-error stream, with control characters escaped
/// in every message and metadata value (``Swift/String/escapingControlCharacters``), so a line of
/// the settings file or a file name can never split, colour or forge a log line.
struct EscapingLogHandler: LogHandler {
    private var inner: StreamLogHandler

    /// A handler for `label` writing to standard error.
    init(label: String) {
        inner = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(event.message.description.escapingControlCharacters)"
        event.metadata = event.metadata?.mapValues { .string($0.description.escapingControlCharacters) }
        inner.log(event: event)
    }
}
