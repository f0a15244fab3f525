import AlbumDomain
import AlbumRuntime
import FrameFinishing
import Logging
import PhotoCodec
import QuietHours
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The "Clock not set" line at the edge: tells the runner at start whether the wall clock has
/// been set since power-on (``AlbumAction/clockFoundUnset(now:advice:)``), then looks again
/// every ``recheck`` until it is (``AlbumAction/clockSet``) or the line's minute is over. The
/// domain decides when the line shows; ``NoticeFrameView`` draws it.
final class ClockNoticeWiring: Sendable {
    private let isShown: Bool
    private let isScreen: Bool
    private let tellsUpdates: Bool
    private let photoFolder: String
    private let logger: Logger
    private let clockSource: @Sendable () -> WallClockSource?
    private let watch = Mutex<Task<Void, Never>?>(nil)

    /// How often the clock is looked at while the line shows.
    static let recheck: Duration = .seconds(2)
    /// The settings file on a Raspberry Pi card, named in the advice when it is there.
    static let cardSettings = "/boot/firmware/babyalbum.txt"

    init(
        _ configuration: SlideshowConfiguration, isScreen: Bool, logger: Logger,
        clockSource: @escaping @Sendable () -> WallClockSource? = { WallClockSource.read() }
    ) {
        isShown = configuration.clockNotice.isShown(onScreen: isScreen)
        self.isScreen = isScreen
        tellsUpdates = configuration.updateResultFile != nil
        photoFolder = configuration.photos
        self.logger = logger
        self.clockSource = clockSource
    }

    /// `view` with the notices drawn over its pictures (this line, an update's outcome), when one
    /// may show and the font opens;
    /// on a screen also the line that says where photos go when there are none.
    func view(over view: any FrameView, size: FrameSize, rotation: ScreenRotation, font path: String) -> any FrameView {
        guard isShown || isScreen || tellsUpdates else { return view }
        do {
            let font = try CaptionFont(path: path)
            let logger = logger
            let hints = isScreen ? [FrameHint.noPhotos: Self.noPhotosLine(photoFolder: photoFolder)] : [:]
            return NoticeFrameView(over: view, font: font, size: size, rotation: rotation, hints: hints) {
                logger.warning("\($0)")
            }
        } catch {
            logger.warning("the \"Clock not set\" line cannot be drawn: \(error)")
            return view
        }
    }

    /// Where to put photos, in one short line: the card's drive by name, else the folder.
    static func noPhotosLine(photoFolder: String) -> String {
        if photoFolder.hasPrefix("/boot/firmware/") {
            let folder = photoFolder.dropFirst("/boot/firmware/".count)
            return "No photos yet: copy photos into the \(folder) folder of the card's BABYALBUM drive"
        }
        return "No photos yet: copy photos into \(photoFolder)"
    }

    /// Sends whether the clock is unset now and, if it is, watches for it to be set.
    func start(sendingTo runner: AlbumRunner<ContinuousClock>) {
        guard isShown, clockSource() == nil else { return }
        let settings = Self.cardSettings
        let advice =
            FileManager.default.fileExists(atPath: settings)
            ? "add Wi-Fi in babyalbum.txt" : "connect the frame to the network"
        runner.send(.clockFoundUnset(now: runner.now, advice: advice))
        let clockSource = clockSource
        watch.withLock {
            $0 = Task {
                let end = ContinuousClock.now.advanced(by: PublishPhoto.noticeDuration)
                while ContinuousClock.now < end {
                    do { try await Task.sleep(for: Self.recheck) } catch { return }
                    if clockSource() != nil { return runner.send(.clockSet) }
                }
            }
        }
    }

    /// Stops watching the clock.
    func stop() {
        watch.withLock { $0?.cancel() }
    }
}
