/// How long the folder watcher waits before it trusts a file, and how it paces its scan.
public struct FolderWatchTiming: Sendable, Equatable {
    /// A photo found by a scan (not announced by inotify) whose last write is more recent than
    /// this is taken once its size and modification time stayed the same this long: it may
    /// still be being written by a program that started before the watch. Older ones are taken
    /// at once.
    public var settleTime: Duration
    /// A photo created while watching is taken when its writer closes it (`IN_CLOSE_WRITE`) or
    /// renames it into place (`IN_MOVED_TO`). If neither happens (a hard link, a writer that keeps
    /// it open), it is taken once it stayed unchanged this long.
    public var quietTimeForOpenFiles: Duration
    /// While the folder is missing, how often to look for it besides watching its parent folder
    /// (which may be missing too, for example a USB stick's mount point).
    public var missingFolderRetry: Duration
    /// How many folder entries the scan handles before it looks at new events and publishes
    /// what is ready, so a big folder never holds up the first photo.
    public var scanBatchSize: Int
    /// How long the first scan may run before the photos ready so far are published without
    /// waiting for the rest. A folder scanned within this time is published as one list, so a
    /// seed gives the same order every run; a big one still shows its first photo early.
    public var firstListPatience: Duration
    /// After the first full list, changes are published at most this often: a burst of events
    /// (a camera roll being copied in) becomes a few lists, not one O(n) list per file.
    public var minimumPublicationInterval: Duration

    /// Creates timing settings.
    public init(
        settleTime: Duration = .milliseconds(500), quietTimeForOpenFiles: Duration = .seconds(10),
        missingFolderRetry: Duration = .seconds(2), scanBatchSize: Int = 256,
        firstListPatience: Duration = .milliseconds(250), minimumPublicationInterval: Duration = .milliseconds(100)
    ) {
        precondition(scanBatchSize > 0, "the scan batch size must be positive")
        self.settleTime = settleTime
        self.quietTimeForOpenFiles = quietTimeForOpenFiles
        self.missingFolderRetry = missingFolderRetry
        self.scanBatchSize = scanBatchSize
        self.firstListPatience = firstListPatience
        self.minimumPublicationInterval = minimumPublicationInterval
    }

    /// The settings `babyalbum` runs with.
    public static let standard = FolderWatchTiming()
}
