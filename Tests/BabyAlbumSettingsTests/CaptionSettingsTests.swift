import AlbumDomain
import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

/// `name`, `birthday` and `caption` in the settings file: an impossible birthday, one in the
/// future, or an age without a birthday is a problem that names its line; good lines give the
/// caption policy.
@Suite struct CaptionSettingsTests {
    @Test func goodLinesGiveTheCaptionPolicy() throws {
        let resolution = try resolve("caption = age+date\nname = Mia\nbirthday = 2024-02-29\n")
        #expect(resolution.problems == [])
        let policy = try resolution.command.captionPolicy()
        #expect(policy.style == .ageAndDate)
        #expect(policy.children == [Child(name: "Mia", birthday: try #require(CivilDate(iso: "2024-02-29")))])
    }

    @Test(arguments: [
        ("birthday = 2023-02-29", "not a day of the calendar"), ("birthday = 2024-13-01", "not a day of the calendar"),
        ("birthday = 10/03/2024", "YYYY-MM-DD"), ("birthday = 2999-01-01", "in the future"),
    ])
    func aBadBirthdayNamesItsLine(_ line: String, reason: String) throws {
        let resolution = try resolve("name = Mia\n# a comment\n\(line)\n")
        #expect(resolution.problems.map(\.line) == [3], "\(resolution.problems)")
        #expect(resolution.problems.first?.reason.contains(reason) == true, "\(resolution.problems)")
        #expect(resolution.problems.first?.description.contains("babyalbum.txt line 3") == true)
    }

    @Test func anAgeWithoutABirthdayIsAProblem() throws {
        let resolution = try resolve("caption = age\n")
        #expect(resolution.problems.map(\.line) == [1])
        #expect(resolution.problems.first?.reason.contains("--birthday") == true, "\(resolution.problems)")
        #expect(try resolve("caption = date\n").problems == [])
    }

    @Test func theDefaultIsNoCaption() throws {
        #expect(try resolve("").command.captionPolicy().style == .none)
    }
}
