import AlbumDomain
import AlbumRuntime
import Logging
import QuietHours

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Quiet hours at the edge: logs whether the clock can be trusted, finds the backlight for
/// `dim`, and sends ``AlbumAction/quietHoursBegan(_:)`` and ``AlbumAction/quietHoursEnded(now:)``
/// as the wall clock enters and leaves the windows. The domain decides the rest.
final class QuietHoursWiring {
    /// How the display is kept quiet (`dim` without a backlight falls back to black).
    let display: QuietDisplay
    private let schedule: QuietSchedule
    private let unsetClock: UnsetClockPolicy
    private let logger: Logger
    private let dimming: DimmingFrameView?
    /// The view to draw on: the output's, behind the backlight when it is dimmed.
    let view: any FrameView
    private var watcher: QuietHoursWatcher?

    /// Reads the clock's state and, for `dim`, finds the backlight; `view` is the output's view.
    init(_ configuration: SlideshowConfiguration, view: any FrameView, logger: Logger) {
        schedule = configuration.quietHours
        unsetClock = configuration.unsetClock
        self.logger = logger
        let clock = ClockSynchronisation.read()
        let zone = LocalTimeCalendar.zoneName
        logger.info("system clock: \(clock); time zone \(zone)")
        var backlight: Backlight?
        if case .dim = configuration.quietMode {
            backlight = Backlight.find(in: configuration.backlightClass)
            if let backlight {
                logger.info("quiet hours dim the backlight \(backlight.directory)")
            } else {
                logger.warning(
                    "--quiet-mode dim: no backlight in \(configuration.backlightClass); quiet hours show black instead")
            }
        }
        display = configuration.quietMode.display(backlight: backlight)
        dimming = backlight.map { DimmingFrameView(over: view, backlight: $0, logger: logger) }
        self.view = dimming ?? view
    }

    /// Sends whether now is quiet (before the album starts, so a frame started at night
    /// comes up dark), then watches the wall clock.
    func start(sendingTo runner: AlbumRunner<ContinuousClock>) {
        guard !schedule.isEmpty else { return }
        logger.notice("quiet hours: \(schedule) (\(display))")
        let timetable = ClockAwareTimetable(
            schedule: CalendarTimetable(schedule: schedule, calendar: LocalTimeCalendar()), policy: unsetClock,
            logger: logger)
        if !timetable.clockIsKnown {
            let shown = unsetClock == .dark ? "the display stays quiet" : "the photos are shown all day"
            logger.warning(
                "the system clock has not been set since power-on: until it is, \(shown) (--quiet-hours-without-clock \(unsetClock)); to set it: \(ClockSynchronisation.fixes)"
            )
        }
        if timetable.isQuiet(at: Date()) { runner.send(.quietHoursBegan(display)) }
        let display = display
        do {
            watcher = try QuietHoursWatcher(timetable: timetable, logger: logger) { isQuiet in
                runner.send(isQuiet ? .quietHoursBegan(display) : .quietHoursEnded(now: runner.now))
            }
        } catch {
            logger.error("quiet hours cannot follow the clock: \(error)")
        }
    }

    /// Stops watching the clock and puts the backlight back.
    func stop() {
        watcher?.stop()
        watcher = nil
        dimming?.restore()
    }
}
