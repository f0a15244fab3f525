/// A child's age on a day, in the unit a parent would say it in: days for the first two weeks,
/// then weeks until two months, months until the first birthday, years and months until the
/// third, then years.
public enum ChildAge: Equatable, Sendable {
    /// 0 to 13 days old.
    case days(Int)
    /// 2 to 8 weeks old (less than two months).
    case weeks(Int)
    /// 2 to 11 months old.
    case months(Int)
    /// 1 or 2 years and 0 to 11 months old.
    case yearsAndMonths(years: Int, months: Int)
    /// 3 years old or more.
    case years(Int)

    /// The age on `day` of a child born on `birthday`; `nil` for a day before the birthday.
    public init?(on day: CivilDate, bornOn birthday: CivilDate) {
        guard day >= birthday else { return nil }
        let days = day.daysSinceEpoch - birthday.daysSinceEpoch
        let months = Self.completedMonths(from: birthday, to: day)
        switch (days, months) {
        case (..<14, _): self = .days(days)
        case (_, ..<2): self = .weeks(days / 7)
        case (_, ..<12): self = .months(months)
        case (_, ..<36): self = .yearsAndMonths(years: months / 12, months: months % 12)
        default: self = .years(months / 12)
        }
    }

    /// Whole months from `start` to `end`. A month is complete on the same day of the month, or
    /// on the month's last day when it is shorter (born 31 January: one month on 28 February;
    /// born 29 February: one year on 28 February of a common year).
    public static func completedMonths(from start: CivilDate, to end: CivilDate) -> Int {
        var months = (end.year - start.year) * 12 + (end.month - start.month)
        let anniversary = min(start.day, CivilDate.daysIn(month: end.month, year: end.year))
        if end.day < anniversary { months -= 1 }
        return max(months, 0)
    }
}
