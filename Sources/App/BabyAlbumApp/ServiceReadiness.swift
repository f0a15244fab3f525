import AlbumDomain
import Synchronization
import SystemdNotify

/// What the frame tells systemd of itself (`Type=notify`): `READY=1` once the screen shows what
/// the album has, a photo or black with its reason, not the black of the start while the photos
/// are read; and a `STATUS=` line whenever that changes, which `systemctl status` shows and the
/// card's update trial reads (deploy/card/slot-good: only "showing photos" proves a freshly
/// updated system slot). A start that is still reading after ``readyAtTheLatest`` is said ready
/// anyway, so that systemd does not abort a frame with a slow folder (`TimeoutStartSec=`).
/// A frame that runs with no screen (`--without-display run`) says so instead of "showing
/// photos", and once its slideshow has gone on for ``unseenProof`` since its first photo, says
/// that: the card takes it as a freshly updated slot's proof when no display is connected.
final class ServiceReadiness: Sendable {
    /// The status while a photo is on the screen.
    static let showingPhotos = "showing photos"
    /// The status of a screen kept dark by quiet hours.
    static let quiet = "no photo on the screen: quiet hours"
    /// The status of a start said ready before its first screen (``startTookLong()``).
    static let readingThePhotos = "reading the photos"
    /// How long a start may read its photos before it is said ready without one.
    static let readyAtTheLatest = Duration.seconds(60)
    /// How long a slideshow with no screen runs, from its first photo, to prove itself.
    static let unseenProof = Duration.seconds(60)

    /// The status while photos are shown to no screen, `reason` saying why there is none.
    static func unseen(_ reason: String) -> String { "slideshow with no screen: \(reason)" }

    /// The status of a slideshow with no screen once it has run for ``unseenProof``; the card's
    /// update trial takes it as proof (deploy/card/slot-good).
    static func unseenForAMinute(_ reason: String) -> String { "slideshow with no screen for a minute: \(reason)" }

    private struct Told {
        var ready = false
        var status: String?
        var unseenPhotoShown = false
        var unseenMinutePassed = false
    }

    private let notifier: SystemdNotifier
    private let unseenBecause: String?
    private let told = Mutex(Told())

    /// Creates the readiness of a frame that notifies through `notifier`, and that has no screen
    /// when `unseenBecause` says why.
    init(notifier: SystemdNotifier, unseenBecause: String? = nil) {
        self.notifier = notifier
        self.unseenBecause = unseenBecause
    }

    /// The status line for a screen that shows `viewModel`, `quiet` when the album is in its
    /// quiet hours; `nil` while the frame is starting (the black of the start) or ending. A photo
    /// dimmed for quiet hours is still a photo on the screen; one on a display switched off is not.
    static func status(of viewModel: FrameViewModel, quiet: Bool) -> String? {
        switch viewModel.content {
        case .photo: viewModel.displayPower == .off ? Self.quiet : showingPhotos
        case .black(let reason): "no photo on the screen: \(reason)"
        case .waiting: quiet ? Self.quiet : nil
        case .ended, .picture: nil
        }
    }

    /// The frame drew `viewModel` (`quiet`: in quiet hours): says ready at the first screen with
    /// a status, and the status whenever it changes.
    func drawn(_ viewModel: FrameViewModel, quiet: Bool) {
        guard let status = Self.status(of: viewModel, quiet: quiet) else { return }
        guard status == Self.showingPhotos, let reason = unseenBecause else { return tell(status) }
        let (isFirst, minutePassed) = told.withLock { told in
            defer { told.unseenPhotoShown = true }
            return (!told.unseenPhotoShown, told.unseenMinutePassed)
        }
        tell(minutePassed ? Self.unseenForAMinute(reason) : Self.unseen(reason))
        if isFirst {
            Task {
                try? await Task.sleep(for: Self.unseenProof)
                unseenMinutePassed(reason)
            }
        }
    }

    /// The slideshow with no screen has run for ``unseenProof``: said now when a photo is what it
    /// shows, else with the next photo.
    private func unseenMinutePassed(_ reason: String) {
        let showsAPhoto = told.withLock { told in
            told.unseenMinutePassed = true
            return told.status == Self.unseen(reason)
        }
        if showsAPhoto { tell(Self.unseenForAMinute(reason)) }
    }

    /// Says ready with "reading the photos" unless the frame was said ready before; for a start
    /// that has read its photos for ``readyAtTheLatest``.
    func startTookLong() {
        let first = told.withLock { told in
            guard !told.ready else { return false }
            told = Told(ready: true, status: Self.readingThePhotos)
            return true
        }
        if first { try? notifier.ready(status: Self.readingThePhotos) }
    }

    private func tell(_ status: String) {
        let (isFirst, changed) = told.withLock { told in
            let answer = (!told.ready, told.status != status)
            told.ready = true
            told.status = status
            return answer
        }
        if isFirst {
            try? notifier.ready(status: status)
        } else if changed {
            try? notifier.status(status)
        }
    }
}
