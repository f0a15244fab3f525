import BabyAlbumSettings
import Foundation
import Testing

@testable import BabyAlbumCommands

private func report(_ text: String) throws -> SettingsReport {
    let file = SettingsFile(path: "babyalbum.txt", contents: text)
    let commandLine = ["--photos", photoFolder]
    let resolution = try SettingsResolver.resolve(
        Show.self, file: file, commandLine: commandLine, ignoring: SettingsWiring.excludedKeys)
    return SettingsWiring.report(path: "babyalbum.txt", file: file, resolution: resolution, commandLine: commandLine)
}

@Suite("Network settings: time servers and Wi-Fi (issue 36)")
struct NetworkSettingsTests {
    @Test("time-servers: Debian's pool by default, host names and addresses, a bad word named")
    func timeServers() throws {
        #expect(TimeServers.debianPool.names.first == "0.debian.pool.ntp.org")
        #expect(
            try TimeServers(parsing: "10.0.2.2 ntp.example.org, fd00::1").names == [
                "10.0.2.2", "ntp.example.org", "fd00::1",
            ])
        #expect(try TimeServers(parsing: "10.0.2.2").timesyncdDropIn.contains("[Time]\nNTP=10.0.2.2\nFallbackNTP=\n"))
        #expect(throws: SettingValueError.self) { try TimeServers(parsing: "ntp;rm") }
        #expect(throws: SettingValueError.self) { try TimeServers(parsing: " ") }
        // Issue 61: a port, colons alone and too many numbers are refused with a reason.
        for bad in ["pool.ntp.org:123", "::::", "1.2.3.4.5.6", "256.1.1.1", "-a.example", "a..b", "ntp.12"] {
            #expect(throws: SettingValueError.self, "\(bad)") { try TimeServers(parsing: bad) }
        }
        #expect(
            try report("time-servers = pool.ntp.org:123\n").problems.first?.reason.contains("without a port") == true)
        #expect(try report("time-servers = -x\n").problems.first?.reason.contains("'-x' is not a host name") == true)
    }

    @Test("Wi-Fi: WPA2/WPA3 with a password, open only for 'none', probed for only when hidden")
    func wifi() throws {
        let secured = try #require(try WiFiNetwork(name: "Home", password: "12345678", country: "DE"))
        #expect(secured.supplicantConfiguration.contains("key_mgmt=WPA-PSK WPA-PSK-SHA256 SAE"))
        #expect(secured.supplicantConfiguration.contains("psk=\"12345678\""))
        #expect(!secured.supplicantConfiguration.contains("scan_ssid"))
        #expect(secured.supplicantConfiguration.contains("country=DE"))
        let hidden = try #require(try WiFiNetwork(name: "Home", password: "12345678", country: "DE", isHidden: true))
        #expect(hidden.supplicantConfiguration.contains("scan_ssid=1"))
        let open = try #require(try WiFiNetwork(name: "Cafe", password: "None", country: "GB"))
        #expect(open.supplicantConfiguration.contains("key_mgmt=NONE"))
        #expect(try WiFiNetwork(name: nil, password: nil, country: "DE") == nil)
    }

    @Test("Wi-Fi: bad settings are one reason that never quotes the password")
    func badWifi() throws {
        #expect(throws: SettingValueError.self) { try WiFiNetwork(name: "Home", password: "short", country: "DE") }
        #expect(throws: SettingValueError.self) { try WiFiNetwork(name: "Home", password: "12345678", country: "EU") }
        #expect(throws: SettingValueError.self) { try WiFiNetwork(name: "Home", password: "12345678", country: nil) }
        #expect(throws: SettingValueError.self) { try WiFiNetwork(name: "Home", password: nil, country: "DE") }
        #expect(try WiFiNetwork(name: nil, password: "12345678", country: "DE") == nil)
        let problems = try report("wifi-name = Home\nwifi-country = DE\nwifi-password = short-1\n").problems
        #expect(problems.count == 2, "the line, and no Wi-Fi: \(problems)")
        #expect(problems.allSatisfy { !$0.reason.contains("short-1") })
    }

    @Test("babyalbum settings never shows the Wi-Fi password")
    func masked() throws {
        let report = try report("wifi-name = Home\nwifi-country = DE\nwifi-password = s3cret-password\n")
        #expect(report.problems.isEmpty)
        #expect(!report.text.contains("s3cret-password"))
        #expect(report.settings.first { $0.key == "wifi-password" }?.values == ["(hidden)"])
        #expect(report.settings.first { $0.key == "wifi-name" }?.values == ["Home"])
    }
}
