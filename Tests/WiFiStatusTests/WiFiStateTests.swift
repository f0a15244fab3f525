import Testing
import WiFiStatus

/// wpa_supplicant's events as one clear line each, and the state file doctor reads.
@Suite struct WiFiStateTests {
    let name = "BabyAlbum Nursery"

    @Test func aWrongPasswordIsOneLineThatNamesTheSetting() {
        let event =
            "<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid=\"BabyAlbum Nursery\" auth_failures=1 duration=10 reason=WRONG_KEY"
        let state = WiFiState(event: event, network: name)
        #expect(state == .wrongPassword(network: name))
        #expect(state?.line == "Wi-Fi: wrong password for 'BabyAlbum Nursery': check wifi-password in babyalbum.txt")
        #expect(state?.isProblem == true)
    }

    /// WPA3 (SAE): hostapd answers a confirm made with another password with status 1
    /// (src/ap/ieee802_11.c, `sae_check_confirm` failing), which wpa_supplicant 2.10 reports as
    /// this event; there is no `reason=WRONG_KEY` for SAE.
    @Test func aWrongWPA3PasswordIsTheSameLine() {
        let refused = "<3>CTRL-EVENT-AUTH-REJECT 02:00:00:00:01:00 auth_type=3 auth_transaction=2 status_code=1"
        #expect(WiFiState(event: refused, network: name) == .wrongPassword(network: name))
        let challengeFailure = "CTRL-EVENT-AUTH-REJECT 02:00:00:00:01:00 auth_type=3 auth_transaction=2 status_code=15"
        #expect(WiFiState(event: challengeFailure, network: name) == .wrongPassword(network: name))
    }

    /// Refusals that do not mean a wrong password: a refused SAE commit (an unsupported group,
    /// status 77), WPA2's open-system authentication refused, an event that only starts alike.
    @Test func otherAuthenticationRefusalsSayNothing() {
        for event in [
            "<3>CTRL-EVENT-AUTH-REJECT 02:00:00:00:01:00 auth_type=3 auth_transaction=1 status_code=77",
            "<3>CTRL-EVENT-AUTH-REJECT 02:00:00:00:01:00 auth_type=0 auth_transaction=2 status_code=1",
            "<3>CTRL-EVENT-AUTH-REJECT 02:00:00:00:01:00 auth_type=3 auth_transaction=2 status_code=17",
            "<3>CTRL-EVENT-AUTH-REJECTED auth_type=3 auth_transaction=2 status_code=1",
        ] {
            #expect(WiFiState(event: event, network: name) == nil, "\(event)")
        }
    }

    @Test func aMissingNetworkAndAConnectionAreTheirOwnLines() {
        #expect(WiFiState(event: "<3>CTRL-EVENT-NETWORK-NOT-FOUND", network: name) == .networkNotFound(network: name))
        let connected = WiFiState(
            event: "<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed [id=0 id_str=]", network: name)
        #expect(connected?.line == "Wi-Fi: connected to 'BabyAlbum Nursery'")
        #expect(connected?.isProblem == false)
    }

    @Test func otherEventsAndOtherReasonsSayNothing() {
        #expect(WiFiState(event: "<3>CTRL-EVENT-SCAN-RESULTS ", network: name) == nil)
        #expect(
            WiFiState(event: "<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid=\"x\" reason=CONN_FAILED", network: name)
                == nil)
    }

    @Test func theStateFileRoundTripsAndRejectsAnythingElse() {
        for state in [
            WiFiState.connected(network: name), .wrongPassword(network: "a b"), .networkNotFound(network: ""),
            .notSetUp(reason: "wifi-name is set (line 2) but wifi-password is not"),
        ] {
            #expect(WiFiState(fileText: state.fileText) == state)
        }
        #expect(WiFiState(fileText: "asleep\nx\n") == nil)
        #expect(WiFiState(fileText: "") == nil)
    }

    @Test func theNetworkNameComesUnquoted() {
        #expect(WiFiState.networkName(fromReply: "\"BabyAlbum Nursery\"\n") == name)
        // wpa_supplicant answers in hex for a name that is not printable ASCII (issue 61).
        #expect(WiFiState.networkName(fromReply: "576f686e756e67204dc3bc6c6c6572\n") == "Wohnung Müller")
        #expect(WiFiState.networkName(fromReply: "f09f8fa0\n") == "🏠")
        #expect(WiFiState.networkName(fromReply: "\"a\u{1B}[2Jb\"\n") == "a\\x1B[2Jb")
        #expect(WiFiState.networkName(fromReply: "ff00\n") == "ff00", "not UTF-8: shown as wpa_supplicant gave it")
    }
}
