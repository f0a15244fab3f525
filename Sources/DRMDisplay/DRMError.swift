#if canImport(Glibc)
    import Glibc
#endif

/// An error a person can act on (no device, no display, permission, DRM master held).
public struct DRMError: Error, CustomStringConvertible {
    /// The message to print.
    public let description: String
    /// The `errno` behind it, when there is one.
    var errnoCode: Int32?
    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }

    /// No `/dev/dri/card*` at all, or none with display outputs.
    static func noDevice(_ detail: String) -> DRMError {
        DRMError(
            "no DRM display device: \(detail). Is a display driver loaded (on a Raspberry Pi: "
                + "dtoverlay=vc4-kms-v3d in config.txt)? Use --output png:DIR to run without a screen.")
    }

    /// A card with outputs but nothing plugged in (or switched on).
    static func noConnectedDisplay(_ detail: String) -> DRMError {
        DRMError("no connected display: \(detail). Plug in a monitor or TV and switch it on, then start again.")
    }

    /// `open` failed with EACCES/EPERM.
    static func permissionDenied(_ path: String, errno code: Int32 = EACCES) -> DRMError {
        var error = DRMError(
            "permission denied opening \(path): run as root or add the user to the 'video' group "
                + "(sudo usermod -aG video $USER, then log in again).")
        error.errnoCode = code
        return error
    }

    /// Another process is DRM master (a desktop, X11, Wayland, another babyalbum).
    static func masterHeld(_ path: String) -> DRMError {
        DRMError(
            "another program is already using the display \(path) (it holds DRM master: a desktop, "
                + "X11, a Wayland compositor or another babyalbum). Stop it, or boot to the console.")
    }

    /// A system call failed; `call` is the C function's name.
    static func systemCall(_ call: String, errno code: Int32, path: String? = nil) -> DRMError {
        let place = path.map { " on \($0)" } ?? ""
        var error = DRMError("\(call) failed\(place): \(String(cString: strerror(code))) (errno \(code))")
        error.errnoCode = code
        return error
    }
}

/// The errno of a failed libc or libdrm call, with the call's name.
struct SystemCallError: Error, CustomStringConvertible {
    /// The C function that failed.
    let call: String
    /// Its errno.
    let errno: Int32

    var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }

    /// The same error as a ``DRMError``, translating EACCES on master-only calls.
    func drmError(path: String) -> DRMError {
        if errno == EACCES || errno == EPERM { return .masterHeld(path) }
        return .systemCall(call, errno: errno, path: path)
    }
}

/// Runs `body` (a libc or libdrm call returning -1 or a negative errno on failure), retrying on
/// EINTR, and turns a failure into a thrown ``SystemCallError`` named `call`.
@discardableResult
func valueOrErrno<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno != 0 ? errno : Int32(truncatingIfNeeded: -Int(result))
        if code == EINTR { continue }
        throw SystemCallError(call: call, errno: code)
    }
}
