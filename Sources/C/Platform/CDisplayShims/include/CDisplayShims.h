#ifndef C_DISPLAY_SHIMS_H
#define C_DISPLAY_SHIMS_H
/* Constants from function-like macros that Swift cannot import (DRM ioctls, fourcc codes,
 * console ioctls), and a helper that must be C: an async-signal-safe crash handler that gives
 * the console back. (The uevent socket is LinuxInterfaces' DatagramSocket.) */
#include <stdint.h>

/// `DRM_IOCTL_MODE_CREATE_DUMB` (an `_IOWR` macro): allocate a dumb scan-out buffer.
extern const unsigned long CDisplayShims_DRM_IOCTL_MODE_CREATE_DUMB;
/// `DRM_IOCTL_MODE_MAP_DUMB`: get the mmap offset of a dumb buffer.
extern const unsigned long CDisplayShims_DRM_IOCTL_MODE_MAP_DUMB;
/// `DRM_IOCTL_MODE_DESTROY_DUMB`: free a dumb buffer.
extern const unsigned long CDisplayShims_DRM_IOCTL_MODE_DESTROY_DUMB;
/// `DRM_FORMAT_XRGB8888` (`fourcc_code('X','R','2','4')`): 32-bit pixels 0xXXRRGGBB, little endian.
extern const uint32_t CDisplayShims_DRM_FORMAT_XRGB8888;
/// `DRM_MODE_PAGE_FLIP_EVENT`: ask for an event when the flip happened.
extern const uint32_t CDisplayShims_DRM_MODE_PAGE_FLIP_EVENT;
/// `DRM_MODE_TYPE_PREFERRED` and `DRM_MODE_TYPE_USERDEF` mode type bits.
extern const uint32_t CDisplayShims_DRM_MODE_TYPE_PREFERRED;
extern const uint32_t CDisplayShims_DRM_MODE_TYPE_USERDEF;
/// `DRM_MODE_FLAG_INTERLACE` mode flag bit.
extern const uint32_t CDisplayShims_DRM_MODE_FLAG_INTERLACE;
/// `DRM_MODE_DPMS_ON` / `DRM_MODE_DPMS_OFF` values of the connector's "DPMS" property.
extern const uint64_t CDisplayShims_DRM_MODE_DPMS_ON;
extern const uint64_t CDisplayShims_DRM_MODE_DPMS_OFF;
/// `DRM_EVENT_CONTEXT_VERSION` understood by this libdrm.
extern const int CDisplayShims_DRM_EVENT_CONTEXT_VERSION;

/// `KDSETMODE` / `KDGETMODE` console ioctls and their `KD_TEXT` / `KD_GRAPHICS` values (<linux/kd.h>).
extern const unsigned long CDisplayShims_KDSETMODE;
extern const unsigned long CDisplayShims_KDGETMODE;
extern const int CDisplayShims_KD_TEXT;
extern const int CDisplayShims_KD_GRAPHICS;


/// `ioctl(fd, KDGETMODE, mode)` / `ioctl(fd, KDSETMODE, mode)` (ioctl is variadic: Swift cannot call it).
int CDisplayShims_kd_get_mode(int fd, int *mode);
int CDisplayShims_kd_set_mode(int fd, int mode);

/// While `tty_fd` >= 0, a crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE) or `exit()`
/// without a clean close puts that console back into `KD_TEXT` before the process dies.
/// Pass -1 to disarm. The handler only calls async-signal-safe functions.
void CDisplayShims_arm_console_restore(int tty_fd);

#endif
