/// A day of the week, numbered as Foundation's Gregorian calendar numbers them (Sunday is 1).
public enum Weekday: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case sunday = 1
    case monday, tuesday, wednesday, thursday, friday, saturday

    /// The three-letter names `--quiet-hours` accepts, lowercase.
    static let names: [String: Weekday] = [
        "sun": .sunday, "mon": .monday, "tue": .tuesday, "wed": .wednesday, "thu": .thursday, "fri": .friday,
        "sat": .saturday,
    ]

    /// Monday to Sunday, the order days are written in a window.
    static let weekOrder: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

    public var description: String { Self.names.first { $0.value == self }!.key }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        weekOrder.firstIndex(of: lhs)! < weekOrder.firstIndex(of: rhs)!
    }
}
