#if canImport(Glibc)
    import Glibc
#endif

/// `folder/name` as a C path, where `name` is bytes (not always UTF-8).
private func cPath(_ folder: String, _ name: [UInt8]) -> [UInt8] {
    Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
}

/// Creates the file `folder/name` (`name` as bytes) holding `contents`, with `open`, `write`,
/// `close`.
public func writeFile(in folder: String, name: [UInt8], contents: [UInt8]) throws(FileCreationError) {
    let fd = cPath(folder, name).withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    }
    guard fd >= 0 else { throw FileCreationError(code: errno) }
    defer { close(fd) }
    guard write(fd, contents, contents.count) == contents.count else { throw FileCreationError(code: EIO) }
}

/// Creates the folder `folder/name` (`name` as bytes).
public func makeDirectory(in folder: String, name: [UInt8]) throws(FileCreationError) {
    let result = cPath(folder, name).withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
    }
    guard result == 0 else { throw FileCreationError(code: errno) }
}

/// A file or folder a test needed could not be made.
public struct FileCreationError: Error {
    /// The `errno`.
    public var code: Int32
}
