import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system or libevdev call of the input layer: the shared ``SystemCallFailure`` (which call,
/// on which device, the `errno`) plus the input layer's advice: the `input` group when permission is
/// denied, another program's exclusive grab when `EVIOCGRAB` is busy.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The failed call, its device or directory, and its `errno`.
    public var failure: SystemCallFailure

    /// The input layer's error for a failed call of the shared kernel interfaces.
    public init(_ failure: SystemCallFailure) {
        self.failure = failure
    }

    /// The error of a call that reports a (positive) `errno` itself, like libevdev's functions.
    init(operation: String, path: String, code: Int32) {
        self.init(SystemCallFailure(operation: operation, path: path, code: code))
    }

    /// Whether the caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { failure.code == EACCES || failure.code == EPERM }

    /// Whether another program already grabbed the device (`EBUSY` from `EVIOCGRAB`).
    public var isBusy: Bool { failure.code == EBUSY }

    /// Whether the device is gone (`ENODEV`, `ENOENT`).
    public var isGone: Bool { failure.code == ENODEV || failure.code == ENOENT }

    public var description: String {
        if isPermissionDenied {
            return "\(failure): add the user to the 'input' group (usermod -aG input USER, then log in again) "
                + "or run as root"
        }
        if isBusy, failure.operation == "libevdev_grab" {
            return "\(failure.path): cannot grab: another program holds an exclusive grab on it "
                + "(\(errnoDescription(failure.code)))"
        }
        return failure.description
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
