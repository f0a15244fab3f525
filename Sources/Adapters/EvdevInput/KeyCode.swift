/// An evdev key or button code (`__u16 code` of an `EV_KEY` `struct input_event`, for example
/// `KEY_POWER`, 116): typed, so it is never mixed up with an event type, a value or a count.
public struct KeyCode: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The kernel's code (`linux/input-event-codes.h`).
    public let rawValue: UInt16

    /// Wraps the kernel's code.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// A code written as a number, as in `[116]`.
    public init(integerLiteral value: UInt16) { self.init(value) }

    public var description: String { String(rawValue) }

    public static func < (lhs: KeyCode, rhs: KeyCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
