#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `fstat(2)` says of an open descriptor: the parts of `struct stat` the program uses.
public struct FileDescriptorStatus: Sendable, Equatable {
    /// The file type, from `st_mode & S_IFMT`.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

        /// The type in words, for messages ("a FIFO").
        public var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    /// The file type.
    public var kind: Kind
    /// `st_size`, in bytes.
    public var size: Int64
    /// `st_mode`: the type and the permission bits.
    public var mode: UInt32
    /// `st_rdev`: the device number of a device node (0 for other files).
    public var deviceNumber: UInt64

    init(_ buffer: stat) {
        switch buffer.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int64(buffer.st_size)
        mode = UInt32(buffer.st_mode)
        deviceNumber = UInt64(buffer.st_rdev)
    }
}
