import AlbumDomain
import LinuxInterfaces
import Synchronization

/// What the display's callers and its thread share: the view models waiting to be drawn (each
/// with the continuation its `render` awaits), whether the display should close, and the size,
/// connector and panel orientation in use. Everything else belongs to the thread.
final class DisplayMailbox: Sendable {
    /// A view model to draw, and the caller to resume once it is on screen.
    struct Request: Sendable {
        var viewModel: FrameViewModel
        var done: CheckedContinuation<Void, Never>
    }

    /// What the thread publishes for ``DRMDisplay/size``, ``DRMDisplay/connectorName`` and
    /// ``DRMDisplay/panelOrientation``.
    struct Status: Sendable {
        var size: FrameSize
        var connectorName: String
        var panelOrientation: String?
    }

    private struct Contents {
        var requests: [Request] = []
        var closeRequested = false
        var isFinished = false
        var status: Status
    }

    private let contents: Mutex<Contents>
    /// Wakes the display thread out of `poll`.
    let wakeup: Wakeup
    /// Each new size the display takes (after a hotplug brings another mode or screen).
    let sizeChanges: AsyncStream<FrameSize>
    private let sizeContinuation: AsyncStream<FrameSize>.Continuation

    init(status: Status) throws(SystemCallFailure) {
        contents = Mutex(Contents(status: status))
        wakeup = try Wakeup()
        (sizeChanges, sizeContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The size, connector and panel orientation in use. A new size is also sent to
    /// ``sizeChanges``.
    var status: Status {
        get { contents.withLock { $0.status } }
        set {
            let oldSize = contents.withLock { contents in
                defer { contents.status = newValue }
                return contents.status.size
            }
            if newValue.size != oldSize { sizeContinuation.yield(newValue.size) }
        }
    }

    /// Queues `request` for the thread; once the display has closed, resumes it at once.
    func post(_ request: Request) {
        let accepted = contents.withLock { contents in
            guard !contents.isFinished else { return false }
            contents.requests.append(request)
            return true
        }
        if accepted { wakeup.signal() } else { request.done.resume() }
    }

    /// Asks the thread to close the display.
    func requestClose() {
        contents.withLock { $0.closeRequested = true }
        wakeup.signal()
    }

    /// Takes the queued requests, and whether the display should close (on the thread).
    func take() -> (requests: [Request], close: Bool) {
        wakeup.drain()
        return contents.withLock { contents in
            defer { contents.requests = [] }
            return (contents.requests, contents.closeRequested)
        }
    }

    /// The display is closed: resumes what is still queued, and from now on every request at once.
    func finish() {
        let left = contents.withLock { contents in
            contents.isFinished = true
            defer { contents.requests = [] }
            return contents.requests
        }
        sizeContinuation.finish()
        for request in left { request.done.resume() }
    }
}
