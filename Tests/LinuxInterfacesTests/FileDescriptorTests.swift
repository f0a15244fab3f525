import LinuxInterfaces
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The file `descriptor` refers to in this process (`readlink` of `/proc/self/fd/N`), `nil` when
/// it is not open. Other tests run at the same time and may reuse a freed number, but never
/// for this test's own file.
private func openFile(_ descriptor: Int32) -> String? {
    var target = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
    return count < 0 ? nil : String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

@Suite struct FileDescriptorTests {
    @Test func closesOnceWhenTheValueEnds() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/a"
        try FileDescriptor.replaceAtomically(path, with: Array("hello".utf8), temporary: path + ".tmp")
        var number: Int32 = -1
        do {
            let file = try FileDescriptor(opening: path)
            number = file.rawValue
            #expect(openFile(number) == resolvedPath(path))
            #expect(fcntl(number, F_GETFD) & FD_CLOEXEC != 0)
            #expect(try file.readToEnd(limit: 100) == Array("hello".utf8))
        }
        #expect(openFile(number) != resolvedPath(path))
    }

    @Test func anExplicitCloseIsCheckedAndTheDeinitClosesNothingMore() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/b"
        let file = try FileDescriptor(opening: path, .writeOnly, options: [.create])
        let number = file.rawValue
        #expect(openFile(number) == resolvedPath(path))
        try file.close()
        #expect(openFile(number) != resolvedPath(path))
        // The number is free again: the next open may take it, and the ended value must not close it.
        let other = try FileDescriptor(opening: path)
        #expect(openFile(other.rawValue) == resolvedPath(path))
    }

    @Test func atomicReplaceLeavesTheNewBytesAndNoTemporaryFile() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/state"
        try FileDescriptor.replaceAtomically(path, with: Array("old".utf8), temporary: path + ".tmp")
        let written = try FileDescriptor.replaceAtomically(path, with: Array("newer".utf8), temporary: path + ".tmp")
        #expect(written == 5)
        #expect(try fileContents(path) == Array("newer".utf8))
        #expect(try directoryEntries(scratch.path) == ["state"])
    }

    @Test func aFailedReplaceKeepsTheOldFileAndRemovesTheTemporary() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/state"
        try FileDescriptor.replaceAtomically(path, with: Array("old".utf8), temporary: path + ".tmp")
        #expect(mkdir(path + ".dir", 0o755) == 0)
        // Renaming a file over a folder fails (EISDIR) after the temporary file was written.
        let failure = try #require(throws: SystemCallFailure.self) {
            try FileDescriptor.replaceAtomically(path + ".dir", with: Array("x".utf8), temporary: path + ".tmp")
        }
        #expect(failure.operation == "rename" && failure.code == EISDIR)
        #expect(try fileContents(path) == Array("old".utf8))
        #expect(Set(try directoryEntries(scratch.path)) == ["state", "state.dir"])
    }

    @Test func errorsCarryTheCallThePathAndTheErrnoText() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
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
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
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
