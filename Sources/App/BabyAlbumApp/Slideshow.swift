import AlbumDomain
import AlbumRuntime
import DRMDisplay
import DecodeSandbox
import FolderRepository
import FrameFinishing
import LinuxInterfaces
import Logging
import PhotoCodec
import SystemdNotify

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Wires the adapters to the domain and runs until the count, the exit button or a signal.
///
/// One way round: the repository, the clock, the input layer, the screen and signals send
/// actions to the ``AlbumRunner``; the ``PublishPhoto`` reducer decides; its state becomes a
/// ``FrameViewModel`` that the view draws. Nothing flows back.
public enum Slideshow {
    /// Runs the slideshow described by `configuration` and returns why it ended. Throws when
    /// the output cannot be opened or the view cannot draw (the service then restarts it).
    public static func run(_ configuration: SlideshowConfiguration, logger: Logger) async throws -> AlbumEnd {
        let output = try SlideshowOutput.open(configuration, logger: logger)
        defer { output.close() }
        let notifier = SystemdNotifier.fromEnvironment()
        let heartbeat = Heartbeat(notifier: notifier, interval: configuration.interval)
        let statistics = PresentationStatistics()
        let rotation = output.rotation(configuration.rotation, logger: logger)
        let runner = makeRunner(
            configuration, rotation: rotation, heartbeat: heartbeat, statistics: statistics, logger: logger)
        let quietHours = QuietHoursWiring(configuration, view: output.view, logger: logger)
        quietHours.start(sendingTo: runner)
        defer { quietHours.stop() }
        let clockNotice = ClockNoticeWiring(configuration, isScreen: output.display != nil, logger: logger)
        let view = clockNotice.view(
            over: quietHours.view, size: output.frameSize, rotation: rotation, font: configuration.captionFont)
        clockNotice.start(sendingTo: runner)
        defer { clockNotice.stop() }
        let updateNotice = UpdateNoticeWiring(resultFile: configuration.updateResultFile, logger: logger)
        updateNotice.start(sendingTo: runner)
        defer { updateNotice.stop() }

        let repository = RescanningRepository { configuration.photoRepository(logger: logger) }
        let signals = SignalWatcher(signals: SignalNumber.watched) { number in
            guard number == SignalNumber.hangUp else { return runner.send(.stopSignalReceived(number)) }
            if configuration.settingsChanged?() == true { return runner.send(.settingsChanged) }
            logger.notice("SIGHUP: reading the photo folder afresh")
            repository.rescan()
        }
        defer { signals.cancel() }
        let exitRequests = forwardExitRequests(from: output, to: runner)
        defer { exitRequests?.cancel() }
        let sizeChanges = forwardSizeChanges(from: output, to: runner)
        defer { sizeChanges?.cancel() }
        let displayConnection = forwardDisplayConnection(from: output, to: runner)
        defer { displayConnection?.cancel() }
        let heartbeatTask = Task { await heartbeat.run() }
        defer { heartbeatTask.cancel() }

        let album = Task {
            await runner.run(
                repository: repository, frameSize: output.frameSize,
                random: configuration.seed.map(SplitMix64.init(seed:)) ?? SplitMix64())
        }
        let drawing = SlideshowDrawing(
            view: view, heartbeat: heartbeat, statistics: statistics,
            readiness: ServiceReadiness(notifier: notifier, unseenBecause: output.unseenBecause))
        do {
            try await drawing.draw(runner.state)
        } catch {
            album.cancel()
            await album.value
            throw SlideshowFailure.viewCannotDraw(error)
        }
        await album.value
        let end = runner.state.value.end ?? .signal(0)
        // A frame that starts again stays the service's main process: a reload to systemd, ended
        // by the next READY=1. STOPPING=1 had systemd kill it 10 s into its new start (the card,
        // a display connected after the frame's start, 2026-12-08).
        if end.startsAgain { try? notifier.reloading(status: "\(end)") } else { try? notifier.stopping() }
        if configuration.reportsLatency { logger.notice("\(statistics.summary)") }
        return end
    }

    /// The runner over the reducer, with the preparer, the shuffle memory and the event log.
    private static func makeRunner(
        _ configuration: SlideshowConfiguration, rotation: ScreenRotation, heartbeat: Heartbeat,
        statistics: PresentationStatistics, logger: Logger
    ) -> AlbumRunner<ContinuousClock> {
        let memory = FileShuffleMemory(
            stateDirectory: configuration.resolvedStateDirectory, folder: configuration.photos, logger: logger)
        if let memory { logger.info("keeping the shuffle round in \(memory.file)") }
        let reducer = PublishPhoto(
            interval: configuration.interval, presentationLimit: configuration.count,
            transition: configuration.transition)
        return AlbumRunner(
            reducer: reducer,
            clock: ContinuousClock(),
            // Every photo is decoded in a sandboxed worker process, never in this one (which holds
            // the DRM master and the grabbed input devices).
            preparer: SandboxedFramePreparer(
                scale: configuration.scale, limits: configuration.limits, rotation: rotation,
                workers: DecodeWorkerPool(refusalAlarm: { call in
                    logger.error(
                        "the decode sandbox refuses \(call): every photo that needs it is skipped (a gap in the allow-list for this system's libraries; `babyalbum doctor` counts them)"
                    )
                }),
                caption: captionPainter(configuration, logger: logger), colourWarning: { logger.warning("\($0)") },
                colourNote: { logger.info("\($0)") }, decodeDeadline: reducer.decodeDeadline),
            memory: memory,
            events: { event in
                if event == .intervalElapsed {
                    statistics.intervalElapsed()
                    heartbeat.tick()
                }
                AlbumEventLog.log(event, to: logger)
            })
    }

    /// The caption painter `configuration` asks for; `nil` for none, or (one warning) when the
    /// font cannot be opened: the photos are shown without captions.
    static func captionPainter(_ configuration: SlideshowConfiguration, logger: Logger) -> CaptionPainter? {
        guard configuration.caption.style != .none else { return nil }
        do {
            let font = try CaptionFont(path: configuration.captionFont)
            return CaptionPainter(policy: configuration.caption, font: font) { logger.debug("\($0)") }
        } catch {
            logger.warning("captions are off: \(error)")
            return nil
        }
    }

    /// Sends each new screen size to the runner: the domain makes the frames again.
    private static func forwardSizeChanges(
        from output: SlideshowOutput, to runner: AlbumRunner<ContinuousClock>
    ) -> Task<Void, Never>? {
        guard let display = output.display else { return nil }
        return Task {
            for await size in display.sizeChanges {
                runner.send(.frameSizeChanged(size))
            }
        }
    }

    /// For a frame with no screen: sends ``AlbumAction/displayConnected`` to the runner once a
    /// display can be drawn on, looking every five seconds.
    private static func forwardDisplayConnection(
        from output: SlideshowOutput, to runner: AlbumRunner<ContinuousClock>
    ) -> Task<Void, Never>? {
        guard output.unseenBecause != nil else { return nil }
        return Task {
            while (try? await Task.sleep(for: .seconds(5))) != nil {
                if DRMProbe.cards().contains(where: \.isChosen) { return runner.send(.displayConnected) }
            }
        }
    }

    /// Sends the input layer's only action, the exit button, to the runner.
    private static func forwardExitRequests(
        from output: SlideshowOutput, to runner: AlbumRunner<ContinuousClock>
    ) -> Task<Void, Never>? {
        guard let input = output.input else { return nil }
        return Task {
            for await request in input.exitRequests {
                runner.send(.exitButtonHeld(request))
            }
        }
    }
}
