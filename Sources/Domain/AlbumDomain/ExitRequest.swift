/// What the input layer sends upward, its only action: the hardware exit button was held.
public struct ExitRequest: Equatable, Sendable, CustomStringConvertible {
    /// The input device that carried the button (its name or path).
    public let device: String
    /// The key that was held (for example, `KEY_POWER`).
    public let key: String

    /// Creates an exit request.
    public init(device: String, key: String) {
        self.device = device
        self.key = key
    }

    public var description: String { "\(key) on \(device)" }
}
