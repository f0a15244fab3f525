import AlbumDomain
import AlbumRuntime
import LinuxInterfaces
import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outcome of the card's last update, told once on screen (issue 64): reads the
/// `update-result` file (on the card's state partition) at start and every ``recheck``; an
/// outcome not yet told (its line differs from the one kept in `update-result-shown` beside it)
/// goes to the runner as ``AlbumAction/updateOutcomeFound(_:now:)``, and its line is kept as
/// told. An "installed" line is told only by the frame of the system it names: on a card, the
/// one whose kernel runs the line's slot (`rauc.slot=` on its command line), at its start or at
/// any later look, since the state partition may be mounted after the frame starts. Elsewhere
/// (no `rauc.slot=`), only when the frame starts. The frame that ran beside the install, in the
/// old system, may find the line before the reboot, and may start again then (a display plugged
/// in, the settings changed): it never tells it, nor keeps it as told.
final class UpdateNoticeWiring: Sendable {
    /// How often the file is looked at after the start (a refused bundle needs no reboot).
    static let recheck: Duration = .seconds(60)

    private let resultFile: String?
    private let runningSlot: String?
    private let logger: Logger
    private let watch = Mutex<Task<Void, Never>?>(nil)
    /// The line this frame told and has not kept as told yet.
    private let told = Mutex<String?>(nil)

    /// Tells the outcomes of `resultFile` (`nil`: none) in the system of `runningSlot` (the
    /// card's slot the kernel runs, `nil` when not on a card).
    init(resultFile: String?, runningSlot: String? = kernelSlot, logger: Logger) {
        self.resultFile = resultFile
        self.runningSlot = runningSlot
        self.logger = logger
    }

    /// The card's slot the running kernel was started from (`rauc.slot=`), `nil` off a card.
    static var kernelSlot: String? { KernelCommandLine.running().value(of: "rauc.slot") }

    /// Whether this frame tells `outcome`, said by `line`, at its start or at a later look.
    func tells(_ outcome: UpdateOutcome, line: String, atStart: Bool) -> Bool {
        guard case .installed = outcome else { return true }
        guard let runningSlot else { return atStart }
        return UpdateResultLine.installedSlot(of: line) == runningSlot
    }

    /// The file that keeps the line last told.
    var shownFile: String? { resultFile.map { $0 + "-shown" } }

    /// Looks at the file now and every ``recheck``, sending each outcome not yet told.
    func start(sendingTo runner: AlbumRunner<ContinuousClock>) {
        guard resultFile != nil else { return }
        if let outcome = untold(atStart: true) { runner.send(.updateOutcomeFound(outcome, now: runner.now)) }
        watch.withLock {
            $0 = Task { [self] in
                while true {
                    do { try await Task.sleep(for: Self.recheck) } catch { return }
                    keepTold()
                    if let outcome = untold(atStart: false) {
                        runner.send(.updateOutcomeFound(outcome, now: runner.now))
                    }
                }
            }
        }
    }

    /// Stops looking; an outcome this frame told is kept as told.
    func stop() {
        watch.withLock { $0?.cancel() }
        keepTold()
    }

    /// The outcome of the file's last line when it has not been told yet (by this frame, or one
    /// before it that kept it as told); this frame then tells it.
    func untold(atStart: Bool) -> UpdateOutcome? {
        guard let resultFile, let shownFile, let line = Self.lastLine(of: resultFile) else { return nil }
        guard line != told.withLock({ $0 }), line != Self.lastLine(of: shownFile),
            let outcome = UpdateResultLine.outcome(of: line), tells(outcome, line: line, atStart: atStart)
        else { return nil }
        told.withLock { $0 = line }
        return outcome
    }

    /// Keeps the line this frame told as told, in ``shownFile``: at its next look (a minute on
    /// screen) or when it stops, not when it is found, so a frame that is killed or restarted in
    /// between (a slow boot's watchdog) leaves it to be told by the next one.
    func keepTold() {
        guard let shownFile, let line = told.withLock({ $0 }) else { return }
        do {
            try FileDescriptor.replaceAtomically(
                shownFile, with: Array((line + "\n").utf8), temporary: shownFile + ".new")
        } catch {
            logger.warning("the update's outcome cannot be kept as told in \(shownFile): it may show again")
        }
        told.withLock { if $0 == line { $0 = nil } }
    }

    /// The last line of a small file (its last 4 KB), `nil` when it has none.
    static func lastLine(of path: String) -> String? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return String(decoding: data.suffix(4096), as: UTF8.self).split(whereSeparator: \.isNewline).last.map(
            String.init)
    }
}
