import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system or libevdev call of the input layer: which call, on which device, and the `errno`.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call that failed (`open`, `libevdev_grab`, `inotify_add_watch`…).
    public var operation: String
    /// The device or directory concerned.
    public var path: String
    /// The C `errno` value (`EACCES`, `EBUSY`…).
    public var code: Int32

    /// Creates an error.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The input layer's error for a failed call of the shared kernel interfaces.
    init(_ failure: SystemCallFailure) {
        self.init(operation: failure.operation, path: failure.path, code: failure.code)
    }

    /// Whether the caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM }

    /// Whether another program already grabbed the device (`EBUSY` from `EVIOCGRAB`).
    public var isBusy: Bool { code == EBUSY }

    /// Whether the device is gone (`ENODEV`, `ENOENT`).
    public var isGone: Bool { code == ENODEV || code == ENOENT }

    public var description: String {
        let reason = String(cString: strerror(code))
        if isPermissionDenied {
            return "\(path): \(operation): \(reason): add the user to the 'input' group "
                + "(usermod -aG input USER, then log in again) or run as root"
        }
        if isBusy, operation == "libevdev_grab" {
            return "\(path): cannot grab: another program holds an exclusive grab on it (\(reason))"
        }
        return "\(path): \(operation): \(reason)"
    }
}

/// ``LinuxInterfaces/valueOrErrno(_:path:retryOnInterrupt:_:)``, failing with an ``InputError``.
func valueOrErrno<I: FixedWidthInteger>(
    _ operation: String, path: String, retryOnInterrupt: Bool = true, _ body: () -> I
) throws(InputError) -> I {
    do {
        return try LinuxInterfaces.valueOrErrno(operation, path: path, retryOnInterrupt: retryOnInterrupt, body)
    } catch {
        throw InputError(error)
    }
}

/// Runs a libevdev call that returns 0 or a negative `errno`.
func libevdevResult(_ operation: String, path: String, _ body: () -> Int32) throws(InputError) {
    let result = body()
    if result < 0 { throw InputError(operation: operation, path: path, code: -result) }
}

extension ExitDeviceFilter {
    /// Resolves symbolic links and `..` (C `realpath`); `nil` if the path does not exist.
    public static func resolvedPath(_ path: String) -> String? { LinuxInterfaces.resolvedPath(path) }
}
