import Testing

@testable import BabyAlbumDoctor

/// `babyalbum doctor` names what failed in this boot (issue 63): on the card, a partition that did
/// not mount, which the frame runs without.
@Suite("Doctor: units that failed in this boot")
struct DoctorFailedUnitsTests {
    func section(failedUnits: [String]) -> DoctorServiceSection {
        DoctorServiceSection(
            unit: "babyalbum.service", systemdRunning: true, unitFile: "/etc/systemd/system/babyalbum.service",
            enabled: "enabled", active: "active", userExists: true, userMissingGroups: [], failedUnits: failedUnits)
    }

    @Test func aPartitionThatDidNotMountIsAWarningInAParentsWords() {
        let service = section(failedUnits: ["var-lib-babyalbum.mount", #"var-lib-babyalbum\x2dsync.mount"#])
        #expect(service.problem == nil)
        #expect(
            service.warnings == [
                "var-lib-babyalbum.mount failed in this boot: the state partition did not mount: photos may come "
                    + "round again after a restart; the frame shows what it has",
                #"var-lib-babyalbum\x2dsync.mount failed in this boot: the family library did not mount: its "#
                    + "photos are not shown; the frame shows what it has",
            ])
    }

    @Test func aRootThatFailedItsCheckAsksForARefreshIfItStays() {
        #expect(
            section(failedUnits: ["systemd-fsck-root.service"]).warnings == [
                "systemd-fsck-root.service failed in this boot: the system partition failed its check: if this "
                    + "stays, re-flash the card; the frame shows what it has"
            ])
    }

    @Test func anyOtherUnitPointsAtItsJournal() {
        let service = section(failedUnits: ["image-test-hang.service"])
        #expect(
            service.warnings == [
                "image-test-hang.service failed in this boot: see `journalctl -b -u image-test-hang.service`; "
                    + "the frame shows what it has"
            ])
    }

    @Test func noFailedUnitNoWarning() {
        #expect(section(failedUnits: []).warnings.isEmpty)
    }
}
