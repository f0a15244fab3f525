import AlbumDomain
import DRMDisplay
import Dispatch
import EvdevInput
import FolderRepository
import Foundation
import Logging
import PNGFileView
import PhotoCodec
import SystemdNotify

/// Why the slideshow ended.
public enum SlideshowEnd: Equatable, Sendable {
    /// `--count` photos were shown.
    case countReached
    /// The hardware exit button was held.
    case exitButton(ExitRequest)
    /// SIGTERM or SIGINT arrived.
    case signal(Int32)
}

/// Wires the adapters to the domain and runs until the count, the exit button or a signal:
/// repository and preparer feed ``PublishPhoto``; its state becomes a ``FrameViewModel`` that
/// the view draws; the input layer can only ask to exit.
public enum Slideshow {
    /// Runs the slideshow described by `configuration`.
    public static func run(_ configuration: SlideshowConfiguration, logger: Logger) async throws -> SlideshowEnd {
        let stops = AsyncStream.makeStream(of: SlideshowEnd.self)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { stops.continuation.yield(.signal($0)) }
        defer { signals.cancel() }

        let view: any FrameView
        let frameSize: FrameSize
        var display: DRMDisplay?
        var input: InputGuard?
        defer {
            // Teardown in reverse order of setup: input grabs, then the screen.
            input?.stop()
            display?.close()
        }
        switch configuration.output {
        case .png(let directory):
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            view = PNGFileView(directory: directory, size: configuration.size)
            frameSize = configuration.size
        case .memory:
            view = MemoryFrameView(size: configuration.size)
            frameSize = configuration.size
        case .drm(let device):
            let opened = try DRMDisplay.open(device: device, mode: configuration.mode, logger: logger)
            display = opened
            view = opened
            frameSize = opened.size
            input = try InputGuard.start(policy: configuration.exitButton, logger: logger)
        }
        if let input {
            let sink = stops.continuation
            Task {
                for await request in input.exitRequests {
                    sink.yield(.exitButton(request))
                    return
                }
            }
        }

        let albumLogger = logger
        let statistics = PresentationStatistics()
        let notifier = SystemdNotifier.fromEnvironment()
        let heartbeat = Heartbeat(notifier: notifier, interval: configuration.interval)
        let heartbeatTask = Task { await heartbeat.run() }
        defer { heartbeatTask.cancel() }
        let stateDirectory: String? =
            switch configuration.stateDirectory {
            case .automatic:
                configuration.seed == nil ? FileShuffleMemory.defaultStateDirectory(photos: configuration.photos) : nil
            case .none: nil
            case .directory(let directory): directory
            }
        let memory = FileShuffleMemory(stateDirectory: stateDirectory, folder: configuration.photos, logger: logger)
        if let memory { logger.info("keeping the shuffle round in \(memory.file)") }
        let interactor = PublishPhoto(
            repository: FolderPhotoRepository(folder: configuration.photos, logger: logger),
            preparer: PhotoFramePreparer(size: frameSize, scale: configuration.scale, limits: configuration.limits),
            clock: ContinuousClock(),
            interval: configuration.interval,
            random: configuration.seed.map(SplitMix64.init(seed:)) ?? SplitMix64(),
            presentationLimit: configuration.count,
            events: { event in
                if event == .intervalElapsed {
                    statistics.intervalElapsed()
                    heartbeat.tick()
                }
                AlbumEventLog.log(event, to: albumLogger)
            },
            memory: memory
        )
        let interactorTask = Task { await interactor.run() }
        let scale = configuration.scale
        let viewTask = Task {
            var drawn: FrameViewModel?
            for await state in interactor.state {
                let viewModel = FrameViewModel(state: state, scale: scale)
                guard viewModel != drawn else { continue }
                heartbeat.drawingStarted()
                try await view.render(viewModel)
                let isPhoto = if case .photo = viewModel.content { true } else { false }
                heartbeat.drawingFinished(photo: isPhoto)
                if isPhoto { statistics.photoPresented() }
                if drawn == nil { try? notifier.ready(status: "showing the album") }
                drawn = viewModel
            }
            stops.continuation.yield(.countReached)
        }

        var end = SlideshowEnd.countReached
        for await stop in stops.stream {
            end = stop
            break
        }
        try? notifier.stopping()
        interactorTask.cancel()
        await interactorTask.value
        if case .countReached = end {
            try await viewTask.value
        } else {
            viewTask.cancel()
            _ = await viewTask.result
        }
        if configuration.reportsLatency { logger.notice("\(statistics.summary)") }
        switch end {
        case .countReached: logger.info("showed \(configuration.count ?? 0) photos, done")
        case .exitButton(let request): logger.notice("exit button: \(request) ended the slideshow")
        case .signal(let number): logger.notice("signal \(number) ended the slideshow")
        }
        return end
    }
}

/// Writes album events to the log, one line an event.
enum AlbumEventLog {
    static func log(_ event: AlbumEvent, to logger: Logger) {
        switch event {
        case .intervalElapsed: logger.trace("interval elapsed")
        case .photoShown(let photo): logger.info("showing \(photo.id)")
        case .photoRetryLater(let photo, let reason): logger.notice("will retry \(photo.id) later: \(reason)")
        case .photoSkipped(let photo, let reason): logger.warning("skipping \(photo.id): \(reason)")
        case .photoListFailed(let reason): logger.error("\(reason)")
        case .albumEmpty: logger.warning("the photo folder has no PNG photos; showing a black screen")
        case .noReadablePhotos(let skipped):
            logger.error("none of the \(skipped) photos could be read; showing a black screen")
        }
    }
}
