import Foundation
import LinuxInterfaces
import Synchronization
import Testing

/// The user and group look-ups (`getpwnam_r`, `getgrouplist`, `getgrnam_r`) and the TCP connection
/// `doctor` uses for Syncthing, against this machine's own database and loopback.
@Suite struct AccountsAndTCPTests {
    @Test func rootIsInTheRootGroup() {
        #expect(UserAccounts.groupIDs(ofUser: "root")?.contains(0) == true)
        #expect(UserAccounts.groupID(ofGroup: "root") == 0)
    }

    /// glibc's files backend fills the record while it scans for a name, so a look-up that is not
    /// reentrant (`getpwnam`) can read another user's group while another thread looks up a user
    /// that does not exist: CI saw root without group 0 once under qemu-user, and a C loop on this
    /// machine got a wrong `getpwnam("root")` 132 times in 200,000.
    @Test func aLookUpIsRightWhileAnotherThreadLooksUpAnUnknownUser() {
        let stop = Mutex(false)
        let other = Thread {
            while !stop.withLock({ $0 }) { _ = UserAccounts.groupIDs(ofUser: "babyalbum-no-such-user") }
        }
        other.start()
        let wrong = (0..<20_000).count { _ in UserAccounts.groupIDs(ofUser: "root")?.contains(0) != true }
        stop.withLock { $0 = true }
        #expect(wrong == 0, "of 20,000 look-ups of root")
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
