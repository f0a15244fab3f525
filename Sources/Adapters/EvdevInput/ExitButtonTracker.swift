import AlbumDomain

/// The exit button's hold timing as a pure state machine: fed button events and timer expiries with
/// the instant they happened, it says when to wake up next and, once, that the exit was requested.
///
/// A press starts a hold; releasing the same key on the same device before ``hold`` has passed
/// cancels it. With a zero hold the press itself is the request. After the one request, nothing
/// else is reported.
public struct ExitButtonTracker<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What the caller should do after an input.
    public enum Outcome: Equatable, Sendable {
        /// Nothing to do (the event did not concern the exit button, or changed no deadline).
        case none
        /// Wake up at this instant and report ``ExitButtonTracker/timerFired(at:)``.
        case wake(at: Instant)
        /// The exit button was held long enough: the one exit request.
        case exit(ExitRequest)
    }

    private struct Button: Hashable {
        var device: String
        var key: KeyCode
    }

    /// Keys that count as the exit button.
    public let keyCodes: Set<KeyCode>
    /// How long the button must be held; zero exits on press.
    public let hold: Duration
    private var pressedAt: [Button: Instant] = [:]
    /// Whether the exit request was already reported.
    public private(set) var isFinished = false

    /// Creates a tracker for these keys and hold time.
    public init(keyCodes: some Sequence<KeyCode>, hold: Duration) {
        self.keyCodes = Set(keyCodes)
        self.hold = max(hold, .zero)
    }

    /// The earliest instant at which a held button completes its hold, if any is held.
    public var deadline: Instant? {
        pressedAt.values.min().map { $0.advanced(by: hold) }
    }

    /// Feeds a button event that happened at `now`.
    public mutating func handle(_ event: ButtonEvent, at now: Instant) -> Outcome {
        guard !isFinished, keyCodes.contains(event.key) else { return .none }
        let button = Button(device: event.device, key: event.key)
        guard event.isPressed else {
            pressedAt[button] = nil
            return .none
        }
        if pressedAt[button] == nil { pressedAt[button] = now }
        return timerFired(at: now)
    }

    /// Feeds the expiry of the wake-up asked for earlier (or any later instant): reports the exit
    /// request if a button has been held for ``hold`` by `now`, otherwise when to wake up next.
    public mutating func timerFired(at now: Instant) -> Outcome {
        guard !isFinished else { return .none }
        let due = pressedAt.filter { $0.value.advanced(by: hold) <= now }
        if let (button, _) = due.min(by: { $0.value < $1.value }) {
            isFinished = true
            pressedAt.removeAll()
            return .exit(ExitRequest(device: button.device, key: KeyName.name(for: button.key)))
        }
        return deadline.map { .wake(at: $0) } ?? .none
    }
}
