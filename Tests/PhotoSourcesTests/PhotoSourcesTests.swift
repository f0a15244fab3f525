import AlbumDomain
import Foundation
import Logging
import Synchronization
import Testing

@testable import PhotoSources

@Suite("Photo sources: several folders and USB sticks as one list")
struct PhotoListMergeTests {
    private func merge(_ stickPhotos: StickPhotos = .join, folders: [String: PhotoListState], order: [String])
        -> PhotoListMerge
    {
        var merge = PhotoListMerge(stickPhotos: stickPhotos)
        merge.sources = order.map { .init(folder: $0, isStick: false, state: folders[$0]!) }
        return merge
    }

    @Test("Loaded lists are joined in source order, each photo once")
    func joined() {
        let merged = merge(
            folders: ["/a": .loaded(["/a/1.png", "/a/2.png"]), "/b": .loaded(["/b/3.png", "/a/1.png"])],
            order: ["/a", "/b"])
        #expect(merged.combined == .loaded(["/a/1.png", "/a/2.png", "/b/3.png"]))
    }

    @Test("A failed or loading folder never hides the others' photos; all failed is failed")
    func failures() {
        #expect(
            merge(folders: ["/a": .failed(reason: "gone"), "/b": .loaded(["/b/1.png"])], order: ["/a", "/b"]).combined
                == .loaded(["/b/1.png"]))
        #expect(
            merge(folders: ["/a": .loading, "/b": .loaded(["/b/1.png"])], order: ["/a", "/b"]).combined
                == .loaded(["/b/1.png"]))
        #expect(merge(folders: ["/a": .loading, "/b": .loaded([])], order: ["/a", "/b"]).combined == .loading)
        #expect(
            merge(folders: ["/a": .failed(reason: "x"), "/b": .failed(reason: "y")], order: ["/a", "/b"]).combined
                == .failed(reason: "x; y"))
        #expect(
            merge(folders: ["/a": .failed(reason: "x"), "/b": .loaded([])], order: ["/a", "/b"]).combined == .loaded([])
        )
    }

    @Test("A stick joins the round; with replace, only sticks while one is in; pulled, the folder is back")
    func sticks() {
        for policy in StickPhotos.allCases {
            var merged = merge(policy, folders: ["/p": .loaded(["/p/1.png"])], order: ["/p"])
            let change = merged.setSticks(["/media/babyalbum/KIDS"])
            #expect(change.added == ["/media/babyalbum/KIDS"])
            #expect(merged.combined == (policy == .join ? .loaded(["/p/1.png"]) : .loading))
            merged.update(folder: "/media/babyalbum/KIDS", state: .loaded(["/media/babyalbum/KIDS/s.png"]))
            #expect(
                merged.combined
                    == .loaded(
                        policy == .join ? ["/p/1.png", "/media/babyalbum/KIDS/s.png"] : ["/media/babyalbum/KIDS/s.png"])
            )
            #expect(merged.setSticks([]).removed == ["/media/babyalbum/KIDS"])
            #expect(merged.combined == .loaded(["/p/1.png"]))
            // A late state from the pulled stick's reading changes nothing.
            merged.update(folder: "/media/babyalbum/KIDS", state: .loaded(["/media/babyalbum/KIDS/s.png"]))
            #expect(merged.combined == .loaded(["/p/1.png"]))
        }
    }
}

@Suite("Mount table")
struct MountTableTests {
    static let sample = """
        22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
        98 22 8:17 / /media/babyalbum/KIDS\\040PHOTOS ro,nosuid,nodev,noexec,relatime shared:50 - vfat /dev/sdb1 ro,fmask=0022
        99 22 8:33 / /media/babyalbum/1234-ABCD ro,nosuid,nodev,noexec shared:51 - exfat /dev/sdc1 ro
        100 99 0:50 / /media/babyalbum/1234-ABCD rw shared:52 - tmpfs tmpfs rw
        101 22 0:51 / /media/babyalbumx rw shared:53 - tmpfs tmpfs rw
        102 22 0:52 / /media/babyalbum rw shared:54 - tmpfs tmpfs rw
        """

    @Test("Parses fields after the optional ones, decodes \\040, and lists mounts strictly below the root once")
    func parse() {
        let entries = MountTable.parse(Self.sample)
        #expect(entries.count == 6)
        #expect(
            entries[1]
                == MountEntry(
                    device: "8:17", mountPoint: "/media/babyalbum/KIDS PHOTOS", fileSystem: "vfat", source: "/dev/sdb1")
        )
        #expect(
            MountTable.mountPoints(below: "/media/babyalbum", in: entries) == [
                "/media/babyalbum/1234-ABCD", "/media/babyalbum/KIDS PHOTOS",
            ])
    }

    @Test("This process's real table has the root mount")
    func real() {
        #expect(MountTable.read().contains { $0.mountPoint == "/" })
    }
}

@Suite("Mount watcher and combined repository on real mounts (needs root to mount)")
struct MountWatcherTests {
    /// A photo repository that lists a folder's files once (the real folder watcher is tested in
    /// FolderRepositoryTests; here the point is which folders are read when).
    struct ListingRepository: PhotoRepository {
        let folder: String
        func photoListStates() -> AsyncStream<PhotoListState> {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return AsyncStream { continuation in
                continuation.yield(.loaded(names.sorted().map { Photo(id: PhotoID(folder + "/" + $0)) }))
            }
        }
    }

    @Test(
        "A bind mount below the root joins the list at once, with no inotify event; a lazy unmount leaves it",
        .enabled(if: getuid() == 0, "needs root: it mounts"), .timeLimit(.minutes(1)))
    func mountAndUnmount() async throws {
        let base = NSTemporaryDirectory() + "babyalbum-mounts-\(getpid())"
        let root = base + "/media"
        let stick = root + "/STICK"
        let data = base + "/data"
        let folder = base + "/photos"
        for path in [stick, data, folder] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(FileManager.default.createFile(atPath: data + "/s.png", contents: Data()))
        #expect(FileManager.default.createFile(atPath: folder + "/f.png", contents: Data()))
        let repository = CombinedPhotoRepository(
            folders: [folder], stickRoot: root, stickPhotos: .join, logger: Logger(label: "test")
        ) { ListingRepository(folder: $0) }
        var states = repository.photoListStates().makeAsyncIterator()
        #expect(await states.next() == .loading)
        #expect(await states.next() == .loaded([Photo(id: PhotoID(folder + "/f.png"))]))
        #expect(system("mount --bind \(data) \(stick)") == 0)
        #expect(
            await states.next()
                == .loaded([Photo(id: PhotoID(folder + "/f.png")), Photo(id: PhotoID(stick + "/s.png"))]))
        #expect(system("umount -l \(stick)") == 0)
        #expect(await states.next() == .loaded([Photo(id: PhotoID(folder + "/f.png"))]))
    }

    /// Stands for a stick's folder watcher that is slow to stop (I/O to a device that is gone):
    /// its stream's termination waits until the test releases it (at most 5 s).
    final class SlowStop: Sendable {
        let release = DispatchSemaphore(value: 0)
        let stopped = Mutex(false)
    }

    struct SlowToStopRepository: PhotoRepository {
        let folder: String
        let slow: SlowStop
        func photoListStates() -> AsyncStream<PhotoListState> {
            let listing = ListingRepository(folder: folder).photoListStates()
            let slow = self.slow
            return AsyncStream { continuation in
                let task = Task { for await state in listing { continuation.yield(state) } }
                continuation.onTermination = { _ in
                    task.cancel()
                    _ = slow.release.wait(timeout: .now() + 5)
                    slow.stopped.withLock { $0 = true }
                }
            }
        }
    }

    @Test(
        "A pulled stick whose reading is slow to stop delays neither the list without it nor the next stick",
        .enabled(if: getuid() == 0, "needs root: it mounts"), .timeLimit(.minutes(1)))
    func slowToStop() async throws {
        let base = NSTemporaryDirectory() + "babyalbum-slow-\(getpid())"
        let root = base + "/media"
        let (first, second, data, folder) = (root + "/ONE", root + "/TWO", base + "/data", base + "/photos")
        for path in [first, second, data, folder] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(FileManager.default.createFile(atPath: data + "/s.png", contents: Data()))
        #expect(FileManager.default.createFile(atPath: folder + "/f.png", contents: Data()))
        let slow = SlowStop()
        let repository = CombinedPhotoRepository(
            folders: [folder], stickRoot: root, stickPhotos: .join, logger: Logger(label: "test")
        ) { path -> any PhotoRepository in
            path.hasPrefix(root) ? SlowToStopRepository(folder: path, slow: slow) : ListingRepository(folder: path)
        }
        let own: Photo = Photo(id: PhotoID(folder + "/f.png"))
        var states = repository.photoListStates().makeAsyncIterator()
        #expect(await states.next() == .loading)
        #expect(await states.next() == .loaded([own]))
        #expect(system("mount --bind \(data) \(first)") == 0)
        #expect(await states.next() == .loaded([own, Photo(id: PhotoID(first + "/s.png"))]))
        #expect(system("umount -l \(first)") == 0)
        #expect(await states.next() == .loaded([own]))
        #expect(slow.stopped.withLock { !$0 }, "the list came while the pulled stick's reading was still stopping")
        #expect(system("mount --bind \(data) \(second)") == 0)
        #expect(await states.next() == .loaded([own, Photo(id: PhotoID(second + "/s.png"))]))
        slow.release.signal()
        #expect(system("umount -l \(second)") == 0)
        slow.release.signal()
        #expect(await states.next() == .loaded([own]))
    }
}

/// Photos written as their paths, for short expectations.
extension Photo: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(id: PhotoID(value))
    }
}

@Suite("Stick survey for doctor")
struct StickSurveyTests {
    @Test("USB sticks from udev's database: mounted with a photo count, or why not; other disks left out")
    func survey() throws {
        let base = NSTemporaryDirectory() + "babyalbum-sticks-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let sys = base + "/sys"
        let udev = base + "/udev"
        let media = base + "/media"
        let devices: [(String, String, String)] = [
            ("sda1", "8:1", "E:ID_BUS=ata\nE:DEVTYPE=partition\nE:ID_FS_USAGE=filesystem\nE:ID_FS_TYPE=ext4\n"),
            ("sdb", "8:16", "E:ID_BUS=usb\nE:DEVTYPE=disk\nE:ID_PART_TABLE_TYPE=dos\n"),
            (
                "sdb1", "8:17",
                "E:ID_BUS=usb\nE:DEVTYPE=partition\nE:ID_FS_USAGE=filesystem\nE:ID_FS_TYPE=vfat\nE:ID_FS_LABEL=KIDS\n"
            ),
            (
                "sdc", "8:32",
                "E:ID_BUS=usb\nE:DEVTYPE=disk\nE:ID_FS_USAGE=filesystem\nE:ID_FS_TYPE=ext4\nE:ID_FS_LABEL=LINUX\n"
            ),
            ("sdd", "8:48", "E:ID_BUS=usb\nE:DEVTYPE=disk\n"),
            ("sde", "8:64", "E:ID_BUS=usb\nE:DEVTYPE=disk\nE:ID_FS_USAGE=filesystem\nE:ID_FS_TYPE=exfat\n"),
        ]
        try FileManager.default.createDirectory(atPath: udev, withIntermediateDirectories: true)
        for (name, dev, properties) in devices {
            try FileManager.default.createDirectory(atPath: "\(sys)/\(name)", withIntermediateDirectories: true)
            try "\(dev)\n".write(toFile: "\(sys)/\(name)/dev", atomically: true, encoding: .utf8)
            try properties.write(toFile: "\(udev)/b\(dev)", atomically: true, encoding: .utf8)
        }
        let mounts = [MountEntry(device: "8:17", mountPoint: media + "/KIDS", fileSystem: "vfat", source: "/dev/sdb1")]
        var counted: [String] = []
        let sticks = StickSurvey.survey(root: media, sysBlock: sys, udevData: udev, mounts: mounts) { folder in
            counted.append(folder)
            return 2
        }
        #expect(sticks.map(\.device) == ["sdb1", "sdc", "sdd", "sde"])
        #expect(sticks[0].mountPoint == media + "/KIDS")
        #expect(sticks[0].photoCount == 2)
        #expect(counted == [media + "/KIDS"], "only the mounted stick is counted, at its mount point")
        #expect(sticks[0].problem == nil)
        #expect(sticks[1].problem?.hasPrefix("ext4 is not read") == true)
        #expect(sticks[2].problem?.hasPrefix("no file system found") == true)
        #expect(sticks[3].problem?.hasPrefix("mounting failed") == true)
        #expect(sticks[1].text.contains("\"LINUX\" (sdc), ext4: not used"))
    }
}
