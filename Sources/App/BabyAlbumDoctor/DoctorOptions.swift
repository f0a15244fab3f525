import AlbumDomain
import DRMDisplay
import DecodeSandbox
import EvdevInput
import FolderRepository
import LinuxInterfaces
import PhotoCodec
import QuietHours

/// What `babyalbum doctor` checks: the options of the slideshow it stands in for.
public struct DoctorOptions: Sendable {
    /// The photo folder.
    public var photos: String
    /// The other photo folders the slideshow would read (each real folder is read once).
    public var extraPhotoFolders: [String] = []
    /// The photos on USB sticks the slideshow would show: with none in the folders, the frame
    /// shows these and is not black.
    public var stickPhotos = 0
    /// Where the slideshow would draw; only `.drm` needs a display and input devices.
    public var output: FrameOutput
    /// The exit button.
    public var exitButton: ExitButtonPolicy
    /// Limits against hostile photos, as the slideshow applies them.
    public var limits: PhotoLimits
    /// Read only each photo's header instead of decoding it.
    public var headersOnly: Bool
    /// The systemd unit.
    public var unit: String
    /// The caps on folders and photos, as the slideshow applies them.
    public var folderLimits: FolderScanLimits = .standard
    /// The quiet hours.
    public var quietHours = QuietSchedule.none
    /// How they keep the display quiet.
    public var quietMode = QuietMode.off
    /// What they do before the wall clock is set.
    public var unsetClock = UnsetClockPolicy.keepShowing
    /// How the screen is mounted.
    public var rotation = RotationSetting.automatic
    /// The slideshow's decode workers: each photo is decoded in the same confined worker, with the
    /// same limits, as the slideshow decodes it, and a call the sandbox refuses is counted (this
    /// process links no decoder).
    public var decodeWorkers = DecodeWorkerPool()
    /// How long the slideshow waits for one photo's decode (``PublishPhoto/decodeDeadline`` of its
    /// interval): a photo the workers do not decode by then is reported as skipped, as the
    /// slideshow passes it over. `nil`: the pool's own deadline.
    public var decodeDeadline: Duration?

    /// Creates options.
    public init(
        photos: String, output: FrameOutput, exitButton: ExitButtonPolicy, limits: PhotoLimits,
        headersOnly: Bool = false, unit: String = "babyalbum.service"
    ) {
        self.photos = photos
        self.output = output
        self.exitButton = exitButton
        self.limits = limits
        self.headersOnly = headersOnly
        self.unit = unit
    }
}
