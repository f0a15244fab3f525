import AlbumDomain
import Testing

/// The age in words, over birthdays and photo days that catch month ends, leap days and the
/// edges between units; each expectation was worked out by hand on a calendar.
@Suite struct CaptionAgeTests {
    static let pairs: [(born: String, taken: String, words: String?)] = [
        // Before the birthday: nothing.
        ("2024-03-10", "2024-03-09", nil),
        ("2024-03-10", "2023-12-31", nil),
        // Days.
        ("2024-03-10", "2024-03-10", "newborn"),
        ("2024-03-10", "2024-03-11", "1 day"),
        ("2024-03-10", "2024-03-12", "2 days"),
        ("2024-03-10", "2024-03-23", "13 days"),
        ("2024-12-31", "2025-01-01", "1 day"),
        ("2024-02-28", "2024-03-01", "2 days"),  // through 29 February
        ("2023-02-28", "2023-03-01", "1 day"),  // a common year
        // Weeks, from 14 days until two months.
        ("2024-03-10", "2024-03-24", "2 weeks"),
        ("2024-03-10", "2024-03-31", "3 weeks"),
        ("2024-03-10", "2024-04-09", "4 weeks"),
        ("2024-03-10", "2024-04-10", "4 weeks"),  // one month, still weeks
        ("2024-03-10", "2024-05-09", "8 weeks"),
        ("2024-12-31", "2025-02-27", "8 weeks"),
        // Months: complete on the same day, or the month's last day when it is shorter.
        ("2024-03-10", "2024-05-10", "2 months"),
        ("2024-03-10", "2024-07-09", "3 months"),
        ("2024-03-10", "2024-07-10", "4 months"),
        ("2024-12-31", "2025-02-28", "2 months"),  // February's last day completes the second month
        ("2024-12-31", "2025-03-01", "2 months"),
        ("2024-12-31", "2025-04-30", "4 months"),  // April has no 31st
        ("2024-12-31", "2025-04-29", "3 months"),
        ("2023-10-31", "2024-02-29", "4 months"),  // a leap February's last day
        ("2023-10-31", "2024-02-28", "3 months"),
        ("2024-01-30", "2024-03-30", "2 months"),
        ("2024-01-29", "2024-03-29", "2 months"),
        ("2024-01-15", "2025-01-14", "11 months"),
        // Years and months until three.
        ("2024-01-15", "2025-01-15", "1 year"),
        ("2024-01-15", "2025-03-15", "1 year, 2 months"),
        ("2024-01-15", "2025-03-14", "1 year, 1 month"),
        ("2024-01-15", "2026-01-14", "1 year, 11 months"),
        ("2024-01-15", "2026-01-15", "2 years"),
        ("2024-01-15", "2026-07-20", "2 years, 6 months"),
        ("2024-01-15", "2027-01-14", "2 years, 11 months"),
        // 29 February birthdays: a common year's anniversary is 28 February.
        ("2024-02-29", "2025-02-28", "1 year"),
        ("2024-02-29", "2025-02-27", "11 months"),
        ("2024-02-29", "2025-03-01", "1 year"),
        ("2024-02-29", "2024-03-29", "4 weeks"),
        ("2024-02-29", "2024-04-29", "2 months"),
        ("2024-02-29", "2026-02-28", "2 years"),
        ("2024-02-29", "2027-02-28", "3 years"),
        ("2024-02-29", "2028-02-28", "3 years"),  // a leap year: 29 February is the anniversary
        ("2024-02-29", "2028-02-29", "4 years"),
        // Years from three.
        ("2020-06-30", "2023-06-30", "3 years"),
        ("2020-06-30", "2023-06-29", "2 years, 11 months"),
        ("2020-06-30", "2031-12-31", "11 years"),
        ("2000-02-29", "2100-02-28", "100 years"),  // 2100 is no leap year
    ]

    @Test(arguments: pairs)
    func ageInWords(_ pair: (born: String, taken: String, words: String?)) throws {
        let born = try #require(CivilDate(iso: pair.born))
        let taken = try #require(CivilDate(iso: pair.taken))
        let words = ChildAge(on: taken, bornOn: born).map(CaptionWording.english.words)
        #expect(words == pair.words, "born \(pair.born), photo of \(pair.taken)")
    }

    @Test func theTableHasAtLeastFortyPairs() {
        #expect(Self.pairs.count >= 40)
    }

    @Test func datesInWords() throws {
        let wording = CaptionWording.english
        #expect(wording.words(try #require(CivilDate(year: 2025, month: 3, day: 12))) == "12 March 2025")
        #expect(wording.words(try #require(CivilDate(year: 2024, month: 2, day: 29))) == "29 February 2024")
        #expect(wording.words(try #require(CivilDate(year: 1999, month: 12, day: 1))) == "1 December 1999")
    }

    @Test func impossibleDaysAreRefused() {
        #expect(CivilDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2024, month: 2, day: 30) == nil)
        #expect(CivilDate(year: 2024, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 0, month: 1, day: 1) == nil)
        #expect(CivilDate(year: 2024, month: 13, day: 1) == nil)
        #expect(CivilDate(iso: "2024-2-01") == nil)
        #expect(CivilDate(iso: "24-02-01") == nil)
        #expect(CivilDate(iso: "2024-02-01x") == nil)
        #expect(CivilDate(iso: "2024-02-29") != nil)
        #expect(CivilDate(iso: "1900-02-29") == nil)
        #expect(CivilDate(iso: "2000-02-29") != nil)
    }

    @Test func captionsOfEachStyle() throws {
        let mia = Child(name: "Mia", birthday: try #require(CivilDate(iso: "2024-03-10")))
        let day = try #require(CivilDate(iso: "2025-05-12"))
        let before = try #require(CivilDate(iso: "2024-01-01"))
        #expect(CaptionPolicy(style: .none, children: [mia]).text(takenOn: day) == nil)
        #expect(CaptionPolicy(style: .age, children: [mia]).text(takenOn: day) == "Mia, 1 year, 2 months")
        #expect(CaptionPolicy(style: .date, children: [mia]).text(takenOn: day) == "12 May 2025")
        #expect(
            CaptionPolicy(style: .ageAndDate, children: [mia]).text(takenOn: day)
                == "Mia, 1 year, 2 months  \u{B7}  12 May 2025")
        #expect(CaptionPolicy(style: .age, children: [mia]).text(takenOn: before) == nil)
        #expect(CaptionPolicy(style: .ageAndDate, children: [mia]).text(takenOn: before) == nil)
        #expect(CaptionPolicy(style: .date, children: [mia]).text(takenOn: before) == "1 January 2024")
        #expect(CaptionPolicy(style: .age, children: [mia]).text(takenOn: nil) == nil)
        let unnamed = Child(name: "", birthday: mia.birthday)
        #expect(CaptionPolicy(style: .age, children: [unnamed]).text(takenOn: day) == "1 year, 2 months")
        let leo = Child(name: "Leo", birthday: try #require(CivilDate(iso: "2025-04-01")))
        #expect(
            CaptionPolicy(style: .age, children: [mia, leo]).text(takenOn: day)
                == "Mia, 1 year, 2 months; Leo, 5 weeks")
    }

    @Test func daysSinceTheEpoch() throws {
        #expect(try #require(CivilDate(iso: "1970-01-01")).daysSinceEpoch == 0)
        #expect(try #require(CivilDate(iso: "2000-03-01")).daysSinceEpoch == 11_017)
        #expect(try #require(CivilDate(iso: "1969-12-31")).daysSinceEpoch == -1)
    }
}
