import LinuxInterfaces
import Testing

/// The user and group look-ups (`getpwnam`, `getgrouplist`, `getgrnam`) and the TCP connection
/// `doctor` uses for Syncthing, against this machine's own database and loopback.
@Suite struct AccountsAndTCPTests {
    @Test func rootIsInTheRootGroup() {
        #expect(UserAccounts.groupIDs(ofUser: "root")?.contains(0) == true)
        #expect(UserAccounts.groupID(ofGroup: "root") == 0)
    }

    @Test func anUnknownUserOrGroupIsNil() {
        #expect(UserAccounts.groupIDs(ofUser: "babyalbum-no-such-user") == nil)
        #expect(UserAccounts.groupID(ofGroup: "babyalbum-no-such-group") == nil)
    }

    @Test func aClosedLoopbackPortRefusesTheConnection() throws {
        let error = try #require(throws: SystemCallFailure.self) {
            _ = try FileDescriptor.connectTCP(host: "127.0.0.1", port: 1, timeout: .milliseconds(500))
        }
        #expect(error.operation == "connect")
        #expect(error.path == "127.0.0.1:1")
    }

    @Test func aHostThatIsNoIPv4AddressFailsBeforeASocketIsMade() throws {
        let error = try #require(throws: SystemCallFailure.self) {
            _ = try FileDescriptor.connectTCP(host: "localhost", port: 8384, timeout: .seconds(1))
        }
        #expect(error.operation == "inet_pton")
    }
}
