import LinuxInterfaces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch folder under /tmp, removed with its files at the end.
private final class ScratchFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/babyalbum-fd-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: try #require(made))
    }

    deinit {
        for name in (try? directoryEntries(path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// Whether `descriptor` is an open descriptor of this process (`fcntl(F_GETFD)`).
private func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

@Suite struct FileDescriptorTests {
    @Test func closesOnceWhenTheValueEnds() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/a"
        try FileDescriptor.replaceAtomically(path, with: Array("hello".utf8), temporary: path + ".tmp")
        var number: Int32 = -1
        do {
            let file = try FileDescriptor(opening: path)
            number = file.rawValue
            #expect(isOpen(number))
            #expect(fcntl(number, F_GETFD) & FD_CLOEXEC != 0)
            #expect(try file.readToEnd(limit: 100) == Array("hello".utf8))
        }
        #expect(!isOpen(number))
    }

    @Test func anExplicitCloseIsCheckedAndTheDeinitClosesNothingMore() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/b"
        let file = try FileDescriptor(opening: path, .writeOnly, options: [.create])
        let number = file.rawValue
        try file.close()
        #expect(!isOpen(number))
        // The number is free again: the next open may take it, and the ended value must not close it.
        let other = try FileDescriptor(opening: path)
        #expect(other.rawValue == number)
        #expect(isOpen(other.rawValue))
    }

    @Test func atomicReplaceLeavesTheNewBytesAndNoTemporaryFile() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/state"
        try FileDescriptor.replaceAtomically(path, with: Array("old".utf8), temporary: path + ".tmp")
        let written = try FileDescriptor.replaceAtomically(path, with: Array("newer".utf8), temporary: path + ".tmp")
        #expect(written == 5)
        #expect(try fileContents(path) == Array("newer".utf8))
        #expect(try directoryEntries(scratch.path) == ["state"])
    }

    @Test func aFailedReplaceKeepsTheOldFileAndRemovesTheTemporary() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/state"
        try FileDescriptor.replaceAtomically(path, with: Array("old".utf8), temporary: path + ".tmp")
        #expect(mkdir(path + ".dir", 0o755) == 0)
        defer { rmdir(path + ".dir") }
        // Renaming a file over a folder fails (EISDIR) after the temporary file was written.
        let failure = try #require(throws: SystemCallFailure.self) {
            try FileDescriptor.replaceAtomically(path + ".dir", with: Array("x".utf8), temporary: path + ".tmp")
        }
        #expect(failure.operation == "rename" && failure.code == EISDIR)
        #expect(try fileContents(path) == Array("old".utf8))
        #expect(Set(try directoryEntries(scratch.path)) == ["state", "state.dir"])
    }

    @Test func errorsCarryTheCallThePathAndTheErrnoText() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/missing"
        let failure = try #require(throws: SystemCallFailure.self) { _ = try FileDescriptor(opening: path) }
        #expect(failure == SystemCallFailure(operation: "open", path: path, code: ENOENT))
        #expect("\(failure)" == "\(path): open: No such file or directory")
        let folder = try #require(throws: SystemCallFailure.self) {
            _ = try FileDescriptor(opening: scratch.path, .writeOnly)
        }
        #expect("\(folder)" == "\(scratch.path): open: Is a directory")
    }

    @Test func statusPreadAndWriteSeeTheSameFile() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path + "/c"
        let writer = try FileDescriptor(opening: path, .readWrite, options: [.create, .truncate], permissions: 0o600)
        try writer.write(Array("0123456789".utf8))
        try writer.sync()
        let status = try writer.status()
        #expect(status.kind == .regular && status.size == 10 && status.mode & 0o777 == 0o600)
        #expect(try writer.read(at: 3, upTo: 4) == Array("3456".utf8))
        #expect(try writer.read(at: 8, upTo: 4) == Array("89".utf8))
        let folder = try FileDescriptor(opening: scratch.path, options: .directory)
        #expect(try folder.status().kind == .directory)
        #expect(throws: SystemCallFailure(operation: "open", path: path, code: ENOTDIR)) {
            _ = try FileDescriptor(opening: path, options: .directory)
        }
    }

    @Test func aZeroByteInAPathIsRefused() {
        #expect(throws: SystemCallFailure(operation: "open", path: "a?b", code: EINVAL)) {
            _ = try FileDescriptor(openingBytes: [0x61, 0, 0x62], displayPath: "a?b")
        }
    }
}
