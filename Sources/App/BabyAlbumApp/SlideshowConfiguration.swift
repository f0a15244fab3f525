import AlbumDomain
import DRMDisplay
import EvdevInput
import FolderRepository
import FrameFinishing
import PhotoCodec
import PhotoSources
import QuietHours

/// Everything `babyalbum` was asked to do, checked and typed.
public struct SlideshowConfiguration: Sendable {
    /// Where frames go (``FrameOutput``, in the domain so that the doctor reads it without the app).
    public typealias Output = FrameOutput

    /// The photo folder.
    public var photos: String
    /// How long each photo stays.
    public var interval: Duration
    /// Stop after this many photos; `nil` runs until the exit button.
    public var count: Int?
    /// Where frames go.
    public var output: Output
    /// Frame size for PNG output.
    public var size: FrameSize
    /// Display mode for DRM output (``ModeRequest/automatic``: the display's own mode, at most 1920x1200).
    public var mode: ModeRequest
    /// How photos are fitted to the screen.
    public var scale: ScaleMode
    /// Fixes the photo order.
    public var seed: UInt64?
    /// Limits against hostile files.
    public var limits: PhotoLimits
    /// The hardware exit button.
    public var exitButton: ExitButtonPolicy
    /// How the screen is mounted (`--rotate`).
    public var rotation = RotationSetting.automatic
    /// How one photo gives way to the next.
    public var transition = PhotoTransition.cut
    /// Log tick-to-presented latencies at the end.
    public var reportsLatency = false
    /// Where the shuffle round is kept across restarts and power cuts.
    public var stateDirectory = StateDirectory.automatic
    /// When the display is kept quiet (`--quiet-hours`); none by default.
    public var quietHours = QuietSchedule.none
    /// How it is kept quiet (`--quiet-mode`).
    public var quietMode = QuietMode.off
    /// What quiet hours do before the wall clock is set (`--quiet-hours-without-clock`).
    public var unsetClock = UnsetClockPolicy.keepShowing
    /// Whether the "Clock not set" line is shown while the wall clock is not set (`--clock-notice`).
    public var clockNotice = ClockNoticeSetting.auto
    /// Where backlights are looked for, for `--quiet-mode dim`.
    public var backlightClass = Backlight.classDirectory
    /// More photo folders after ``photos`` (`--photos` repeated).
    public var extraPhotoFolders: [String] = []
    /// The folder below which USB sticks are mounted (`/media/babyalbum`); `nil`: none.
    public var stickRoot: String?
    /// Whether a stick's photos join the folder's or replace them while it is in.
    public var stickPhotos = StickPhotos.join
    /// What each photo's caption says (`--caption`, `--name`, `--birthday`); none by default.
    public var caption = CaptionPolicy(style: .none, children: [])
    /// The captions' font file.
    public var captionFont = CaptionFont.defaultPath
    /// The card's update outcomes, told once on screen (`nil`: none; ``UpdateNoticeWiring``).
    public var updateResultFile: String? = nil
    /// The card's file of update outcomes (`deploy/card/update-check` writes it).
    public static let cardUpdateResultFile = "/var/lib/babyalbum/update-result"
    /// Asked on SIGHUP: `true` when the settings file changed, and the slideshow should end
    /// (``AlbumEnd/restartRequested``) so that the command starts again with the new settings.
    public var settingsChanged: (@Sendable () -> Bool)?
    /// What the DRM output does when there is no display to draw on (`--without-display`).
    public var withoutDisplay = WithoutDisplay.exit

    /// What the DRM output does when no display is there (no DRM device with outputs, or nothing
    /// connected to them).
    public enum WithoutDisplay: String, Sendable, CaseIterable {
        /// Ends with the reason (the service restarts it).
        case exit
        /// Runs the slideshow with no screen, each photo decoded as if shown, and starts again on
        /// a display once one is connected: the card's frame, whose updated system slot proves
        /// itself with a minute of slideshow when no display is connected (issue 64).
        case run
    }

    /// Where the shuffle round is kept (`--state-dir`).
    public enum StateDirectory: Sendable, Equatable {
        /// `/var/lib/babyalbum` when it is writable, else beside the photos when writable, else
        /// nowhere; nowhere when a seed fixes the order (a seeded run must repeat exactly).
        case automatic
        /// Nowhere: every start begins a fresh round.
        case none
        /// This folder.
        case directory(String)
    }

    /// The state directory `--state-dir` resolves to: `automatic` looks for a writable place,
    /// and keeps nothing when a seed fixes the order (a seeded run must repeat exactly).
    var resolvedStateDirectory: String? {
        switch stateDirectory {
        case .automatic: seed == nil ? FileShuffleMemory.defaultStateDirectory(photos: photos) : nil
        case .none: nil
        case .directory(let directory): directory
        }
    }

    /// Creates a configuration.
    public init(
        photos: String, interval: Duration, count: Int?, output: Output, size: FrameSize, mode: ModeRequest,
        scale: ScaleMode, seed: UInt64?, limits: PhotoLimits, exitButton: ExitButtonPolicy
    ) {
        self.photos = photos
        self.interval = interval
        self.count = count
        self.output = output
        self.size = size
        self.mode = mode
        self.scale = scale
        self.seed = seed
        self.limits = limits
        self.exitButton = exitButton
    }
}
