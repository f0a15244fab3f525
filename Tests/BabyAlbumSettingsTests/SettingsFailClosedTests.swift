import Foundation
import Testing

@testable import BabyAlbumCommands
@testable import BabyAlbumSettings

/// Issue 61: the settings file a parent edits never opens the Wi-Fi, never shows a password and
/// never costs more than milliseconds. Every input is written here, as a parent would write it.
@Suite("Settings file: fails closed (issue 61)")
struct SettingsFailClosedTests {
    /// The network-setup path: the file resolved once, its network values, and the Wi-Fi they
    /// make (or why none).
    private func wifi(_ text: String) throws -> Result<WiFiNetwork?, SettingValueError> {
        let resolution = try SettingsWiring.resolve(
            file: SettingsFile(path: "babyalbum.txt", contents: text), commandLine: [])
        return Result { () throws(SettingValueError) in
            try resolution.command.network.wifi(problems: resolution.problems, accepted: resolution.accepted)
        }
    }

    /// Password lines as parents write them wrong: each must leave the card with no network,
    /// never an open one.
    static let wrongPasswordLines = [
        "wifi-password = short7!", "wifi-password = Müller-2024!", "wifi-password: hunter2222",
        "wifi password = hunter2222", "wifi-password =\nhunter2222", "Wifi_Password hunter2222",
        "wifi-pasword = hunter2222", "wifi-password = \"hunter2222", "wifi-password = pass\tword1",
        "wifi-password = \u{1B}[31mhunter2222", "wifi-password = " + String(repeating: "ａ", count: 64),
        "wifi-password = " + String(repeating: "x", count: 64),
    ]

    @Test(
        "A malformed, misspelt or refused wifi-password line means no network, never an open one",
        arguments: wrongPasswordLines)
    func neverOpen(line: String) throws {
        let result = try wifi("wifi-name = Home\nwifi-country = DE\n\(line)\n")
        guard case .failure(let error) = result else {
            Issue.record("a network was made: \(String(describing: try? result.get()))")
            return
        }
        #expect(error.description.contains("line 3"), "names the line: \(error)")
        #expect(!error.description.contains("hunter"))
    }

    @Test("No password line at all is no network either, naming wifi-name's line and what to write")
    func missingPasswordLine() throws {
        guard case .failure(let error) = try wifi("# home\nwifi-name = Home\nwifi-country = DE\n") else {
            Issue.record("a network was made")
            return
        }
        #expect(error.description.contains("line 2"))
        #expect(error.description.contains("wifi-password = none"))
    }

    @Test("An open network only for 'wifi-password = none'; scan_ssid only for a hidden network")
    func openOnlyWhenAsked() throws {
        let open = try #require(try wifi("wifi-name = Cafe\nwifi-country = fr\nwifi-password = NONE\n").get())
        #expect(open.password == nil)
        #expect(open.country == "FR")
        #expect(!open.supplicantConfiguration.contains("scan_ssid"))
        let hidden = try #require(
            try wifi("wifi-name = Home\nwifi-country = DE\nwifi-password = 12345678\nwifi-hidden = yes\n").get())
        #expect(hidden.supplicantConfiguration.contains("scan_ssid=1"))
    }

    @Test(
        "No password is ever quoted: not by the file, the resolver, settings or settings --json",
        arguments: wrongPasswordLines)
    func neverQuoted(line: String) throws {
        let text = "wifi-name = Home\nwifi-country = DE\n\(line)\ninterval = 9\n"
        let file = SettingsFile(path: "babyalbum.txt", contents: text)
        let resolution = try SettingsResolver.resolve(
            Show.self, file: file, commandLine: ["--photos", photoFolder], ignoring: SettingsWiring.excludedKeys)
        let report = SettingsWiring.report(
            path: "babyalbum.txt", file: file, resolution: resolution, commandLine: ["--photos", photoFolder])
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        for output in [report.text, json, resolution.problems.map(\.description).joined()] {
            #expect(!output.contains("hunter"), "\(output)")
            #expect(!output.contains("short7"), "\(output)")
            #expect(!output.contains("Müller-2024"), "\(output)")
            #expect(!output.contains("pass\tword") && !output.contains("pass\\tword"), "\(output)")
            #expect(!output.contains("ａａａａ") && !output.contains("xxxxxxxx"), "\(output)")
        }
        #expect(resolution.command.interval == 9, "the good line after it applies")
    }

    @Test("Quotes before comments: '#' inside quotes is kept; after a space outside them it starts a comment")
    func quotesBeforeComments() {
        let file = SettingsFile(
            path: "f",
            contents: """
                wifi-password = "correct horse #battery"  # the router's
                wifi-name = 'Cafe #5'
                name = Mia # our girl
                photos = /srv/a#b
                caption = "age
                scale = "fit" and more
                """)
        #expect(
            file.entries == [
                SettingsEntry(key: "wifi-password", value: "correct horse #battery", line: 1),
                SettingsEntry(key: "wifi-name", value: "Cafe #5", line: 2),
                SettingsEntry(key: "name", value: "Mia", line: 3),
                SettingsEntry(key: "photos", value: "/srv/a#b", line: 4),
            ])
        #expect(file.problems.map(\.line) == [5, 6])
        #expect(file.problems[0].reason.contains("not closed"))
    }

    @Test("Only ASCII passes as a passphrase or hex key: fullwidth digits, TAB, ESC and DEL do not")
    func asciiOnly() {
        #expect(WiFiNetwork.isPassphrase(String(repeating: "a1", count: 32)))
        #expect(!WiFiNetwork.isPassphrase(String(repeating: "１", count: 64)))
        #expect(!WiFiNetwork.isPassphrase("pass\tword"))
        #expect(!WiFiNetwork.isPassphrase("pass\u{1B}word"))
        #expect(!WiFiNetwork.isPassphrase("pass\u{7F}word"))
        #expect(!WiFiNetwork.isPassphrase("Müller-2024!"))
        #expect(WiFiNetwork.isPassphrase("correct horse battery ~!@#$%^&*()"))
    }

    @Test("The country in any case, checked against ISO 3166; UK is GB with a note, EU is no country")
    func countries() {
        #expect(WiFiNetwork.countryCode("de")?.code == "DE")
        #expect(WiFiNetwork.countryCode("UK")?.code == "GB")
        #expect(WiFiNetwork.countryCode("UK")?.note != nil)
        #expect(WiFiNetwork.countryCode("EU") == nil)
        #expect(WiFiNetwork.countryCode("XX") == nil)
        #expect(WiFiNetwork.countryCode("ＤＥ") == nil)
    }

    @Test("Notepad's UTF-16 (both byte orders) and UTF-8 with a byte-order mark are read")
    func notepadEncodings() throws {
        let text = "interval = 7\r\nwifi-name = Wohnung Müller\r\n"
        var little: [UInt8] = [0xFF, 0xFE]
        var big: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        for bytes in [little, big, bom, Array(little.dropFirst(2))] {
            let path = NSTemporaryDirectory() + "babyalbum-encoding-\(UUID().uuidString).txt"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let file = try #require(SettingsFile.read(path))
            #expect(file.problems == [])
            #expect(file.entries.map(\.value) == ["7", "Wohnung Müller"])
        }
    }

    @Test("clock-module in any case; a time zone that is not a compiled zone is refused")
    func carelessValues() throws {
        #expect(try resolve("clock-module = DS3231\n").command.network.clockModule == .ds3231)
        #expect(try resolve("time-zone = leapseconds\n").problems.map(\.line) == [1])
        #expect(try resolve("time-zone = Europe/Berlin\n").problems == [])
    }

    @Test("A key set twice: only the last line counts, and the earlier one is named")
    func lastLineCounts() throws {
        let resolution = try resolve("interval = 5\ninterval = abc\nseed = 3\n")
        #expect(resolution.problems.map(\.line) == [1, 2])
        #expect(resolution.command.interval == 15)
        #expect(resolution.command.seed == 3)
    }

    @Test("A caption line that needs the name and birthday after it is accepted once they are")
    func laterLinesEnableEarlierOnes() throws {
        let resolution = try resolve("caption = age\nname = Mia\nbirthday = 2024-03-10\ninterval = x\n")
        #expect(resolution.problems.map(\.line) == [4])
        #expect(resolution.command.caption == .age)
    }

    @Test("A hostile 64 KB file: thousands of refused lines are screened without a parse each")
    func hostileFileIsLinear() throws {
        var text = ""
        var line = 0
        while text.utf8.count < SettingsFile.maxFileBytes - 64 {
            line += 1
            text +=
                line % 3 == 0 ? "photos = /p\(line)\n" : line % 3 == 1 ? "interval = \(line)\n" : "nosuch-\(line) = 1\n"
        }
        text += "interval = oops\n"
        let resolution = try SettingsResolver.resolve(
            Show.self, file: SettingsFile(path: "f", contents: text), commandLine: [],
            ignoring: SettingsWiring.excludedKeys)
        #expect(resolution.accepted.filter { $0.key == "photos" }.count == SettingsResolver.maxLinesPerKey)
        #expect(resolution.problems.count == line + 1 - SettingsResolver.maxLinesPerKey)
        let report = SettingsReport(
            file: "f", fileFound: true, resolution: resolution,
            keys: SettingsCatalog.keys(of: Show.self, excluding: SettingsWiring.excludedKeys), commandLine: [])
        #expect(report.problems.count == SettingsReport.maxProblems + 1, "the log names 40 lines and counts the rest")
    }

    @Test("The card's Syncthing sees only the family library's lines and the name, on their own line numbers")
    func familyLibraryCopy() {
        let file = SettingsFile(
            path: "f",
            contents: "wifi-name = Home\r\nwifi-password = \(Self.secret)\r\n\(Self.secret)\r\nname = Mia\r\n"
                + "family-library = 6HAVORI-6XHTXGG-4K7HFZQ-ULIIJWH-WMVJ2I3-WUSVFXK-IX6MMIO-AD4KSA6 dynamic\r\n")
        let copy = file.keeping(only: ["family-library", "family-library-network", "name"])
        #expect(!copy.contains(Self.secret))
        #expect(!copy.contains("Home"))
        let reread = SettingsFile(path: "copy", contents: copy)
        #expect(reread.entries.map(\.line) == [4, 5])
        #expect(reread.entries.map(\.value) == ["Mia", file.entries.last!.value])
        #expect(reread.problems == [])
    }

    static let secret = "Hunter2Secret"
}
