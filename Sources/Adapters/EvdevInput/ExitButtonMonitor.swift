import AlbumDomain

/// Drives an ``ExitButtonTracker`` in real time on any `Clock`: button events are sent in from the
/// input thread (stamped with the clock's time on arrival), hold deadlines are slept on with the
/// clock, and ``run()`` returns the one ``ExitRequest``.
///
/// Tests use swift-clocks' `TestClock`; the product uses `ContinuousClock`.
public final class ExitButtonMonitor<C: Clock>: Sendable where C.Duration == Duration {
    private enum Input: Sendable {
        case button(ButtonEvent, at: C.Instant)
        case timer(C.Instant)
    }

    private let clock: C
    private let keyCodes: [KeyCode]
    private let hold: Duration
    private let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation

    /// Creates a monitor for the policy's keys and hold time (the device filter is applied upstream,
    /// by choosing which devices send events).
    public init(policy: ExitButtonPolicy, clock: C) {
        self.clock = clock
        keyCodes = policy.keyCodes
        hold = policy.hold
        (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
    }

    /// Reports a button event; callable from any thread. The event is stamped with the clock's now.
    public func send(_ event: ButtonEvent) {
        continuation.yield(.button(event, at: clock.now))
    }

    /// Ends ``run()`` (it returns `nil` unless the request was already due).
    public func finish() {
        continuation.finish()
    }

    /// Waits for the exit button to be held long enough; `nil` if ``finish()`` came first.
    /// Call it once.
    public func run() async -> ExitRequest? {
        var tracker = ExitButtonTracker<C.Instant>(keyCodes: keyCodes, hold: hold)
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        var armed: C.Instant?
        for await input in inputs {
            let outcome: ExitButtonTracker<C.Instant>.Outcome
            switch input {
            case .button(let event, let now):
                outcome = tracker.handle(event, at: now)
            case .timer(let now):
                armed = nil
                outcome = tracker.timerFired(at: now)
            }
            switch outcome {
            case .exit(let request):
                return request
            case .wake(let deadline) where deadline != armed:
                timer?.cancel()
                armed = deadline
                timer = Task { [clock, continuation] in
                    guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                    continuation.yield(.timer(deadline))
                }
            case .wake, .none:
                break
            }
        }
        return nil
    }
}
