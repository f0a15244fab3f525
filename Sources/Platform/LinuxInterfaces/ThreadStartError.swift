/// `pthread_create` failed: its error number (`EAGAIN` when the system is out of threads).
public struct ThreadStartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error number `pthread_create` returned.
    public let code: Int32

    public var description: String { "pthread_create: \(errnoDescription(code))" }
}
