import AlbumDomain
import DRMDisplay

/// What `babyalbum doctor` found: the display, the input devices, the photo folder and the
/// service, and the problems that would stop the frame from working.
///
/// Encoded as JSON for `--json`; ``DoctorReport/text`` is the readable form.
public struct DoctorReport: Codable, Sendable, Equatable {
    /// `true` when nothing would stop the frame (``problems`` is empty).
    public var ok: Bool
    /// What would stop the frame from working, one sentence each, with what to do.
    public var problems: [String]
    /// What is worth knowing but does not stop the frame.
    public var warnings: [String]
    /// The DRM cards and the display BabyAlbum would use.
    public var display: DoctorDisplaySection
    /// The input devices and the exit button.
    public var input: DoctorInputSection
    /// The photo folder.
    public var photos: DoctorPhotoSection
    /// The systemd service and its user.
    public var service: DoctorServiceSection
    /// The system clock and the quiet hours.
    public var clock: DoctorClockSection?
    /// The card's system slots and updates; `nil` off the card.
    public var updates: DoctorUpdatesSection?

    /// Assembles a report and derives ``ok``, ``problems`` and ``warnings`` from the sections.
    public init(
        display: DoctorDisplaySection, input: DoctorInputSection, photos: DoctorPhotoSection,
        service: DoctorServiceSection
    ) {
        self.display = display
        self.input = input
        self.photos = photos
        self.service = service
        self.problems = [display.problem, input.problem, photos.problem, service.problem].compactMap { $0 }
        self.warnings = display.warnings + input.warnings + photos.warnings + service.warnings
        self.ok = problems.isEmpty
    }
}
