/// Every word a caption uses, in one table: a translation is another table.
public struct CaptionWording: Sendable, Equatable {
    /// A unit's singular and plural (`day`, `days`).
    public struct Unit: Sendable, Equatable {
        /// For 1.
        public var one: String
        /// For any other number.
        public var other: String

        /// Creates a unit.
        public init(one: String, other: String) {
            self.one = one
            self.other = other
        }

        /// `count` with its unit: "1 day", "3 days".
        public func callAsFunction(_ count: Int) -> String { "\(count) \(count == 1 ? one : other)" }
    }

    /// Days.
    public var day: Unit
    /// Weeks.
    public var week: Unit
    /// Months.
    public var month: Unit
    /// Years.
    public var year: Unit
    /// The age on the day of birth.
    public var newborn: String
    /// Between years and months ("1 year, 2 months").
    public var ageSeparator: String
    /// Between a name and an age ("Mia, 4 months").
    public var nameSeparator: String
    /// Between the age and the date.
    public var dateSeparator: String
    /// Between two children.
    public var childSeparator: String
    /// January to December.
    public var monthNames: [String]

    /// English, as a parent says it: "1 year, 2 months", "12 March 2025".
    public static let english = CaptionWording(
        day: Unit(one: "day", other: "days"), week: Unit(one: "week", other: "weeks"),
        month: Unit(one: "month", other: "months"), year: Unit(one: "year", other: "years"),
        newborn: "newborn", ageSeparator: ", ", nameSeparator: ", ", dateSeparator: "  \u{B7}  ",
        childSeparator: "; ",
        monthNames: [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ])

    /// The age in words.
    public func words(_ age: ChildAge) -> String {
        switch age {
        case .days(0): newborn
        case .days(let count): day(count)
        case .weeks(let count): week(count)
        case .months(let count): month(count)
        case .yearsAndMonths(let years, 0): year(years)
        case .yearsAndMonths(let years, let months): year(years) + ageSeparator + month(months)
        case .years(let count): year(count)
        }
    }

    /// The day in words: "12 March 2025".
    public func words(_ date: CivilDate) -> String { "\(date.day) \(monthNames[date.month - 1]) \(date.year)" }
}
