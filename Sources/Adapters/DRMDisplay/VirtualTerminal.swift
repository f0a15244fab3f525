import CDisplayShims
import LinuxInterfaces
import Logging

/// The virtual terminal shown on the screen, switched to `KD_GRAPHICS` so the kernel console
/// draws no text or cursor over the photos, and back to its previous mode (`KD_TEXT`) by
/// ``restore()``, or by the crash handler if the process dies first.
final class VirtualTerminal {
    private var terminal: FileDescriptor
    private let previousMode: Int32

    /// Opens the foreground VT (`/dev/tty0`, else the process's own terminal) and switches it to
    /// graphics mode. `nil` (with a warning) when there is no VT to switch.
    init?(logger: Logger) {
        guard let terminal = Self.openConsole(logger: logger) else { return nil }
        let fd = terminal.rawValue
        var mode: Int32 = 0
        if CDisplayShims_kd_get_mode(fd, &mode) < 0 {
            logger.warning("KDGETMODE on the console failed: \(lastErrnoDescription())")
            return nil
        }
        if mode != CDisplayShims_KD_TEXT {
            logger.warning("the console is already in graphics mode: is another display program running?")
        }
        self.terminal = terminal
        self.previousMode = mode == CDisplayShims_KD_GRAPHICS ? CDisplayShims_KD_TEXT : mode
        if CDisplayShims_kd_set_mode(fd, CDisplayShims_KD_GRAPHICS) < 0 {
            logger.warning("KDSETMODE KD_GRAPHICS failed: \(lastErrnoDescription())")
        }
        CDisplayShims_arm_console_restore(fd)
    }

    deinit { restore() }

    /// `open("/dev/tty0", O_WRONLY | O_NOCTTY)`, else this process's own terminal (`/dev/tty`:
    /// the service's `TTYPath=`, tty1); `nil` with a warning when neither opens. Debian 13's udev
    /// makes `/dev/tty0` 0600 (Debian 12's: 0620, writable by the `tty` group), so the frame's
    /// user opens it no more; its own tty1 is the screen's VT all the same, and `KDSETMODE` on a
    /// controlling terminal needs no privilege.
    private static func openConsole(logger: Logger) -> FileDescriptor? {
        var failures: [String] = []
        for path in ["/dev/tty0", "/dev/tty"] {
            do throws(SystemCallFailure) {
                let options: FileDescriptor.Options = path == "/dev/tty" ? [] : .noControllingTerminal
                let terminal = try FileDescriptor(opening: path, .writeOnly, options: options)
                var mode: Int32 = 0
                guard CDisplayShims_kd_get_mode(terminal.rawValue, &mode) == 0 else {
                    failures.append("\(path) is not a virtual terminal")
                    continue
                }
                return terminal
            } catch {
                failures.append("cannot open \(path) (\(errnoDescription(error.code)))")
            }
        }
        logger.warning("\(failures.joined(separator: "; ")): console text may show over the photos")
        return nil
    }

    /// Puts the console back into text mode. Safe to call more than once.
    func restore() {
        guard terminal.rawValue >= 0 else { return }
        CDisplayShims_arm_console_restore(-1)
        _ = CDisplayShims_kd_set_mode(terminal.rawValue, previousMode)
        terminal.closeNow()
    }
}
