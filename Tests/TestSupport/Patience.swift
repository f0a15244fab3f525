import Foundation

/// How many times longer than on the host a test waits for something published:
/// `BABYALBUM_TEST_PATIENCE`, a whole number, 1 when unset. `scripts/package --unit-tests` sets it
/// under qemu-user, where the CPU-bound codec tests hold the cooperative pool's threads for
/// minutes while the other lane of the test command loads the machine.
public let testPatience: Int = {
    guard let text = ProcessInfo.processInfo.environment["BABYALBUM_TEST_PATIENCE"], let value = Int(text),
        value >= 1
    else { return 1 }
    return value
}()

/// `duration` times ``testPatience``: a wait's limit, never a sleep.
public func patient(_ duration: Duration) -> Duration {
    duration * testPatience
}
