import LinuxInterfaces

#if canImport(Glibc)
    import Glibc
#endif

/// An error a person can act on (no device, no display, permission, DRM master held). When a
/// system call is behind it, it wraps that call's ``SystemCallFailure`` and adds the advice.
public struct DRMError: Error, CustomStringConvertible {
    /// The message to print.
    public let description: String
    /// The failed system call behind it, when there is one.
    public let failure: SystemCallFailure?

    /// Creates an error with a message.
    public init(_ description: String) { self.init(description, failure: nil) }

    private init(_ description: String, failure: SystemCallFailure?) {
        self.description = description
        self.failure = failure
    }

    /// A failed call on an open card. `EACCES`/`EPERM` there (on master-only calls) means
    /// another program holds DRM master.
    init(_ failure: SystemCallFailure) {
        if failure.code == EACCES || failure.code == EPERM {
            self.init(Self.masterHeld(failure.path).description, failure: failure)
        } else {
            self.init(
                "\(failure.operation) failed on \(failure.path): \(failure.reason) (errno \(failure.code))",
                failure: failure)
        }
    }

    /// The `errno` behind it, when there is one.
    var errnoCode: Int32? { failure?.code }

    /// No `/dev/dri/card*` at all, or none with display outputs.
    static func noDevice(_ detail: String, failure: SystemCallFailure? = nil) -> DRMError {
        DRMError(
            "no DRM display device: \(detail). Is a display driver loaded (on a Raspberry Pi: "
                + "dtoverlay=vc4-kms-v3d in config.txt)? Use --output png:DIR to run without a screen.",
            failure: failure)
    }

    /// A card with outputs but nothing plugged in (or switched on).
    static func noConnectedDisplay(_ detail: String) -> DRMError {
        DRMError("no connected display: \(detail). Plug in a monitor or TV and switch it on, then start again.")
    }

    /// `open` failed with `EACCES`/`EPERM`: the advice is the `video` group.
    static func permissionDenied(_ failure: SystemCallFailure) -> DRMError {
        DRMError(
            "permission denied opening \(failure.path): run as root or add the user to the 'video' group "
                + "(sudo usermod -aG video $USER, then log in again).",
            failure: failure)
    }

    /// Another process is DRM master (a desktop, X11, Wayland, another babyalbum).
    static func masterHeld(_ path: String) -> DRMError {
        DRMError(
            "another program is already using the display \(path) (it holds DRM master: a desktop, "
                + "X11, a Wayland compositor or another babyalbum). Stop it, or boot to the console.")
    }
}

extension SystemCallFailure {
    /// `strerror` of the code.
    var reason: String { errnoDescription(code) }
}
