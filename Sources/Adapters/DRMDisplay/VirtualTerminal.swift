import CDisplayShims
import LinuxInterfaces
import Logging

/// The virtual terminal shown on the screen, switched to `KD_GRAPHICS` so the kernel console
/// draws no text or cursor over the photos, and back to its previous mode (`KD_TEXT`) by
/// ``restore()``, or by the crash handler if the process dies first.
final class VirtualTerminal {
    private var terminal: FileDescriptor
    private let previousMode: Int32

    /// Opens the foreground VT (`/dev/tty0`, whichever terminal babyalbum was started from) and
    /// switches it to graphics mode. `nil` (with a warning) when there is no VT to switch.
    init?(logger: Logger) {
        guard let terminal = Self.openConsole(logger: logger) else { return nil }
        let fd = terminal.rawValue
        var mode: Int32 = 0
        if CDisplayShims_kd_get_mode(fd, &mode) < 0 {
            logger.warning("KDGETMODE on /dev/tty0 failed: \(lastErrnoDescription())")
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

    /// `open("/dev/tty0", O_WRONLY | O_NOCTTY)`; `nil` with a warning when it fails.
    private static func openConsole(logger: Logger) -> FileDescriptor? {
        do throws(SystemCallFailure) {
            return try FileDescriptor(opening: "/dev/tty0", .writeOnly, options: .noControllingTerminal)
        } catch {
            logger.warning(
                "cannot open /dev/tty0 (\(errnoDescription(error.code))): console text may show over the photos")
            return nil
        }
    }

    /// Puts the console back into text mode. Safe to call more than once.
    func restore() {
        guard terminal.rawValue >= 0 else { return }
        CDisplayShims_arm_console_restore(-1)
        _ = CDisplayShims_kd_set_mode(terminal.rawValue, previousMode)
        terminal.closeNow()
    }
}
